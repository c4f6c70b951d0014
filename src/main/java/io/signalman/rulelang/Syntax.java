package io.signalman.rulelang;

import org.drools.drl.ast.descr.AccumulateDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.CollectDescr;
import org.drools.drl.ast.descr.EntryPointDescr;

/** Parser messages and DRL elements, said without the parsers' jargon. */
final class Syntax {

    private Syntax() {
    }

    /** A parser's message on one line, without the stack trace and the token lists JavaCC appends. */
    static String plain(String message) {
        if (message == null) {
            return "";
        }
        String m = message;
        for (String cut : new String[] {"Problem stacktrace", "Was expecting", "\n    at line", ", expected one of"}) {
            int at = m.indexOf(cut);
            if (at >= 0) {
                m = m.substring(0, at);
            }
        }
        StringBuilder out = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < m.length(); i++) {
            char c = m.charAt(i);
            if (Character.isWhitespace(c)) {
                space = out.length() > 0;
            } else {
                out.append(space ? " " : "").append(c);
                space = false;
            }
        }
        String s = out.toString();
        s = s.replace("Encountered unexpected token:", "found").replace("Parse error. Found", "found");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** What a DRL element is, for "... is not part of the rule language". */
    static String element(BaseDescr d) {
        if (d instanceof AccumulateDescr) {
            return "accumulate";
        }
        if (d instanceof CollectDescr) {
            return "collect";
        }
        if (d instanceof EntryPointDescr) {
            return "an entry point";
        }
        String simple = d.getClass().getSimpleName().replace("Descr", "");
        StringBuilder out = new StringBuilder();
        for (char c : simple.toCharArray()) {
            out.append(Character.isUpperCase(c) && out.length() > 0 ? " " : "").append(Character.toLowerCase(c));
        }
        return "\"" + out + "\"";
    }
}
