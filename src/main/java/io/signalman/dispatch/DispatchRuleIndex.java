package io.signalman.dispatch;

import io.signalman.engine.BundleError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

/**
 * What the dispatch pack reads from its own DRL beyond what the engine indexes: each dispatch
 * rule's short name ({@code @name("support-group")}, which {@code matched_by} reports as
 * {@code dispatch.rule:support-group}), and the pack's lint findings: a dispatch rule with no
 * condition at all, a repeated short name, and a selector literal that can never equal the
 * normalized view ({@code chat == "Group:-100123"}).
 *
 * <p>The engine's compile reports syntax errors with their lines; a file that does not parse is
 * skipped here so they are not reported twice.
 */
public final class DispatchRuleIndex {

    static final String NAME_ANNOTATION = "name";
    private static final Pattern LITERAL = Pattern.compile("\\b(channel|account|space|chat|topic|sender)\\s*==\\s*\"([^\"]*)\"");

    private final Map<String, String> shortNames = new HashMap<>();
    private final List<BundleError> findings = new ArrayList<>();

    /** Indexes the pack's DRL files; {@code files} may hold other files, which are ignored. */
    public static DispatchRuleIndex of(Map<String, byte[]> files) {
        DispatchRuleIndex index = new DispatchRuleIndex();
        Map<String, RuleDescr> byShortName = new HashMap<>();
        files.forEach((path, bytes) -> {
            if (path.endsWith(".drl")) {
                index.indexFile(path, new String(bytes, StandardCharsets.UTF_8), byShortName);
            }
        });
        return index;
    }

    /** {@code dispatch.rule:<short name>}, or {@code dispatch.rule} for a rule without {@code @name}. */
    public String matchedBy(String ruleName) {
        String shortName = shortNames.get(ruleName);
        return shortName == null || shortName.isEmpty() ? "dispatch.rule" : "dispatch.rule:" + shortName;
    }

    /** Lint errors, each at its file and line. */
    public List<BundleError> findings() {
        return List.copyOf(findings);
    }

    private void indexFile(String file, String text, Map<String, RuleDescr> byShortName) {
        DrlParser parser = new DrlParser();
        PackageDescr pkg;
        try {
            pkg = parser.parse(false, text);
        } catch (DroolsParserException e) {
            return;
        }
        if (pkg == null || parser.hasErrors()) {
            return;
        }
        for (RuleDescr r : pkg.getRules()) {
            AttributeDescr group = r.getAttributes().get("agenda-group");
            if (group == null || !DispatchTier.DISPATCH.agendaGroup().equals(unquote(group.getValue()))) {
                continue;
            }
            AnnotationDescr name = r.getAnnotation(NAME_ANNOTATION);
            if (name != null) {
                // The seed reports rule names trimmed and lower-cased.
                String shortName = GoText.fold(unquote(name.getSingleValueAsString()));
                shortNames.put(r.getName(), shortName);
                RuleDescr twin = byShortName.putIfAbsent(shortName, r);
                if (twin != null) {
                    findings.add(at(file, r, "rule \"" + r.getName() + "\" has @name(\"" + shortName + "\") like rule \""
                            + twin.getName() + "\"; matched_by must say which rule decided, so give each its own name"));
                }
            }
            if (unconstrained(r)) {
                findings.add(at(file, r, "dispatch rule \"" + r.getName() + "\" has no condition, so it would take every "
                        + "message; constrain at least one field (for example Inbound( channel == \"telegram\" ))"));
            }
            literals(file, r);
        }
    }

    /** True when every element of the condition is a pattern with no constraint and no source. */
    static boolean unconstrained(RuleDescr r) {
        for (BaseDescr d : r.getLhs().getDescrs()) {
            if (!(d instanceof PatternDescr p) || p.getSource() != null || !p.getConstraint().getDescrs().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private void literals(String file, RuleDescr r) {
        for (BaseDescr d : r.getLhs().getDescrs()) {
            if (!(d instanceof PatternDescr p) || !"Inbound".equals(simpleName(p.getObjectType()))) {
                continue;
            }
            for (BaseDescr c : p.getConstraint().getDescrs()) {
                Matcher m = LITERAL.matcher(c.getText() == null ? c.toString() : c.getText());
                while (m.find()) {
                    String field = m.group(1);
                    String value = m.group(2);
                    String want = "account".equals(field) ? Ids.account(value) : GoText.fold(value);
                    String problem = null;
                    if (!value.equals(want)) {
                        problem = "the view's " + field + " is normalized, so write \"" + want + "\"";
                    } else if (List.of("space", "chat", "topic").contains(field) && value.indexOf(':') <= 0) {
                        problem = "the view's " + field + " reads <type>:<id>" + ("topic".equals(field) ? " (topic:<id>)" : "");
                    }
                    if (problem != null) {
                        int line = c.getLine() > 0 ? c.getLine() : r.getLine();
                        findings.add(new BundleError(file, line, 1, "rule \"" + r.getName() + "\": " + field + " == \"" + value
                                + "\" can never match: " + problem));
                    }
                }
            }
        }
    }

    private static String simpleName(String type) {
        return type == null ? "" : type.substring(type.lastIndexOf('.') + 1);
    }

    private static String unquote(String s) {
        String t = s == null ? "" : s.trim();
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }

    private static BundleError at(String file, RuleDescr r, String message) {
        return new BundleError(file, r.getLine(), r.getColumn() + 1, message);
    }
}
