package io.signalman.engine;

import java.util.ArrayList;
import java.util.List;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * One parsed DRL file as compile units see it: its package, where each rule's text is, and the
 * package-level declarations (imports, globals) that rules in other files of the package see too.
 *
 * @param rules        the character span of every rule, in file order
 * @param ruleNames    every rule's name, in file order
 * @param declarations the character span of every import and global, in file order
 * @param separable    whether the file's rules may be compiled apart from each other and from
 *                     the package's other files: it declares nothing that compiled code would
 *                     have to share (no functions, types, queries, rule inheritance, windows,
 *                     entry points, units or file-wide attributes)
 */
record DrlFile(String path, String text, String packageName, List<Span> rules, List<String> ruleNames,
               List<Span> declarations, boolean separable) {

    /** Characters {@code [start, end)} of the text, starting on 1-based {@code line}. */
    record Span(int start, int end, int line) {
    }

    static DrlFile of(String path, String text, PackageDescr descr) {
        List<Span> rules = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Span> declarations = new ArrayList<>();
        boolean separable = descr.getFunctions().isEmpty() && descr.getTypeDeclarations().isEmpty()
                && descr.getEnumDeclarations().isEmpty() && descr.getEntryPointDeclarations().isEmpty()
                && descr.getWindowDeclarations().isEmpty() && descr.getAttributes().isEmpty()
                && descr.getUnit() == null;
        for (RuleDescr r : descr.getRules()) {
            separable &= !r.isQuery() && r.getParentName() == null;
            separable &= add(rules, r, text);
            names.add(r.getName());
        }
        List<BaseDescr> decls = new ArrayList<>();
        decls.addAll(descr.getImports());
        decls.addAll(descr.getFunctionImports());
        decls.addAll(descr.getAccumulateImports());
        decls.addAll(descr.getGlobals());
        for (BaseDescr d : decls) {
            separable &= add(declarations, d, text);
        }
        declarations.sort(java.util.Comparator.comparingInt(Span::start));
        String pkg = descr.getName() == null ? "" : descr.getName();
        return new DrlFile(path, text, pkg, List.copyOf(rules), List.copyOf(names), List.copyOf(declarations), separable);
    }

    /** Adds the descr's span; false when the parser did not say where it is (then nothing is split). */
    private static boolean add(List<Span> spans, BaseDescr d, String text) {
        int start = d.getStartCharacter();
        int end = d.getEndCharacter();
        if (start < 0 || end <= start || end > text.length()) {
            return false;
        }
        spans.add(new Span(start, end, d.getLine()));
        return true;
    }

    String textOf(Span s) {
        return text.substring(s.start(), s.end());
    }

    /**
     * The file's rules cut into runs of at most {@code max} rules, as {@code [from, to)} pairs.
     * A run ends at a rule whose name hashes to a boundary (once the run has a quarter of
     * {@code max}), so where runs end depends on the rules' names, not on how many rules come
     * before: adding or removing a rule changes the run it is in, and the other runs stay as
     * they were (content-defined chunking, as rsync and backup tools cut files).
     */
    List<int[]> runs(int max) {
        List<int[]> runs = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < rules.size(); i++) {
            int length = i + 1 - from;
            if (length >= max || length >= Math.max(1, max / 4) && Math.floorMod(mix(ruleNames.get(i).hashCode()),
                    Math.max(1, max / 2)) == 0) {
                runs.add(new int[] {from, i + 1});
                from = i + 1;
            }
        }
        if (from < rules.size() || runs.isEmpty()) {
            runs.add(new int[] {from, rules.size()});
        }
        return runs;
    }

    /** Spreads a string hash, whose low bits barely change between names like "route 1", "route 2". */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    /**
     * The text with every rule outside {@code [from, to)} reduced to its line breaks, so what
     * remains keeps its lines and columns: an error the compiler finds in it is located exactly as
     * in the whole file. A dropped rule's last line is padded with spaces only when something
     * follows it on that line. Dropping rather than blanking keeps the text the same when a
     * dropped rule changes within its lines, so other units do not recompile for it.
     */
    String keepingRules(int from, int to) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        for (int i = 0; i < rules.size(); i++) {
            if (i >= from && i < to) {
                continue;
            }
            Span s = rules.get(i);
            out.append(text, at, s.start());
            int lineStart = s.start();
            for (int c = s.start(); c < s.end(); c++) {
                char ch = text.charAt(c);
                if (ch == '\n' || ch == '\r') {
                    out.append(ch);
                    lineStart = c + 1;
                }
            }
            int eol = text.indexOf('\n', s.end());
            if (!text.substring(s.end(), eol < 0 ? text.length() : eol).isBlank()) {
                out.append(" ".repeat(s.end() - lineStart));
            }
            at = s.end();
        }
        return out.append(text, at, text.length()).toString();
    }

    /** The column (0-based, in characters) at which a span starts. */
    int columnOf(Span s) {
        return s.start() - (text.lastIndexOf('\n', s.start() - 1) + 1);
    }
}
