package io.signalman.dispatch;

import io.signalman.engine.PackFiles;
import io.signalman.engine.BundleError;
import io.signalman.rulelang.Condition;
import io.signalman.rulelang.DecideCall;
import io.signalman.rulelang.PatternReading;
import io.signalman.rulelang.RuleReading;
import io.signalman.rulelang.Suggest;
import io.signalman.rulelang.Test;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * What the dispatch pack reads from its own DRL beyond what the engine indexes: each dispatch
 * rule's short name ({@code @name("support-group")}, which {@code matched_by} reports as
 * {@code dispatch.rule:support-group}), and the pack's lint findings: a dispatch rule with no
 * condition at all, a repeated short name, and a selector literal that can never equal the
 * normalized view ({@code chat == "Group:-100123"}) are errors; an agent that agents.json does
 * not list (the decision would fall back to the default agent) is a warning. Reads through the
 * platform's rule reader.
 *
 * <p>The engine's compile reports syntax errors with their lines; a file that does not parse is
 * skipped here so they are not reported twice.
 */
public final class DispatchRuleIndex {

    static final String NAME_ANNOTATION = "name";
    private static final Set<String> SELECTORS = Set.of("channel", "account", "space", "chat", "topic", "sender");

    private final Map<String, String> shortNames = new HashMap<>();
    private final List<BundleError> findings = new ArrayList<>();
    private final List<BundleError> warnings = new ArrayList<>();

    /** Indexes the pack's DRL files; {@code files} may hold other files, which are ignored. */
    public static DispatchRuleIndex of(PackFiles files) {
        return of(files, AgentRoster.EMPTY);
    }

    /** Indexes the pack's DRL files, warning about agents the roster does not list. */
    public static DispatchRuleIndex of(PackFiles files, AgentRoster agents) {
        DispatchRuleIndex index = new DispatchRuleIndex();
        Map<String, RuleDescr> byShortName = new HashMap<>();
        for (String path : files.drlPaths()) {
            files.rules(path).rules().forEach(r -> index.indexRule(path, r, byShortName, agents));
        }
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

    /** Lint warnings (an agent nobody has), each at its file and line. */
    public List<BundleError> warnings() {
        return List.copyOf(warnings);
    }

    private void indexRule(String file, RuleReading reading, Map<String, RuleDescr> byShortName, AgentRoster agents) {
        RuleDescr r = reading.descr();
        AttributeDescr group = r.getAttributes().get("agenda-group");
        if (group == null || !DispatchTier.DISPATCH.agendaGroup().equals(unquote(group.getValue()))) {
            return;
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
        literals(file, reading);
        agents(file, reading, agents);
    }

    /** An agent the roster does not list: the decision silently falls back to the default agent. */
    private void agents(String file, RuleReading reading, AgentRoster agents) {
        if (agents.ids().isEmpty()) {
            return; // no roster: every agent id is taken as written (seed 004)
        }
        for (DecideCall call : reading.calls("agent")) {
            for (String requested : call.texts()) {
                if (GoText.trim(requested).isEmpty() || agents.ids().contains(Ids.agent(requested))) {
                    continue;
                }
                warnings.add(new BundleError(file, call.line(), call.column(), "rule \"" + reading.name() + "\" sends to agent \""
                        + requested + "\", which " + AgentRoster.FILE + " does not list, so its messages go to the default agent \""
                        + agents.defaultAgent() + "\"" + Suggest.hint(requested, agents.ids(), "The agents")));
            }
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

    private void literals(String file, RuleReading reading) {
        for (PatternReading p : reading.patterns()) {
            if (!"Inbound".equals(simpleName(p.type()))) {
                continue;
            }
            for (Condition c : p.conditions()) {
                for (Test t : c.tests()) {
                    if (!SELECTORS.contains(t.field()) || !t.operator().equals("==") || !(t.value() instanceof String value)) {
                        continue;
                    }
                    String field = t.field();
                    String want = "account".equals(field) ? Ids.account(value) : GoText.fold(value);
                    String problem = null;
                    if (!value.equals(want)) {
                        problem = "the view's " + field + " is normalized, so write \"" + want + "\"";
                    } else if (List.of("space", "chat", "topic").contains(field) && value.indexOf(':') <= 0) {
                        problem = "the view's " + field + " reads <type>:<id>" + ("topic".equals(field) ? " (topic:<id>)" : "");
                    }
                    if (problem != null) {
                        findings.add(new BundleError(file, c.line(), 1, "rule \"" + reading.name() + "\": " + field + " == \""
                                + value + "\" can never match: " + problem));
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
