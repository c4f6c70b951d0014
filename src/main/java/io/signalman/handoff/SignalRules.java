package io.signalman.handoff;

import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import io.signalman.engine.PackFiles;
import io.signalman.engine.BundleError;
import io.signalman.rulelang.Condition;
import io.signalman.rulelang.DecideCall;
import io.signalman.rulelang.PatternReading;
import io.signalman.rulelang.RuleReading;
import io.signalman.rulelang.Test;
import java.util.ArrayList;
import java.util.List;
import org.drools.drl.ast.descr.AttributeDescr;

/**
 * Reads the signal rules of the handoff pack through the platform's rule reader, so that the
 * crew check can name the line of a bad signal or an unknown target, and the invariants know
 * every termination signal independently of which rule fired.
 *
 * <p>NOTE: a signal rule (agenda-group {@code terminate} or {@code route}) says a
 * {@code Turn( crew == "..", agent == ".." )} pattern, {@code from $turn.match("[SIGNAL]")}, and
 * {@code decide.terminate($said)} or {@code decide.route($said, "target")}, where the target
 * may be a named value ({@code String target = "billing";}) and the call may span lines; a
 * signal rule that does not say all of that is an error, so a rule never escapes the check by
 * being written differently.
 */
final class SignalRules {

    static final String TERMINATE = HandoffTier.TERMINATE.agendaGroup();
    static final String ROUTE = HandoffTier.ROUTE.agendaGroup();

    private SignalRules() {
    }

    /** The signal rules of every DRL file, in file and line order; unreadable ones become errors. */
    static List<SignalRule> read(PackFiles files, List<BundleError> errors) {
        List<SignalRule> out = new ArrayList<>();
        for (String path : files.drlPaths()) {
            // A file that does not parse is reported by the engine's compile, with its lines.
            files.rules(path).rules().forEach(r -> rule(path, r, out, errors));
        }
        return out;
    }

    private static void rule(String file, RuleReading r, List<SignalRule> out, List<BundleError> errors) {
        AttributeDescr groupAttribute = r.descr().getAttributes().get("agenda-group");
        String group = groupAttribute == null ? null : groupAttribute.getValue().strip();
        if (group != null && group.length() >= 2 && group.startsWith("\"") && group.endsWith("\"")) {
            group = group.substring(1, group.length() - 1);
        }
        boolean terminateTier = TERMINATE.equals(group);
        if (!terminateTier && !ROUTE.equals(group)) {
            return;
        }
        String crew = null;
        String agent = null;
        String signal = null;
        int signalLine = 0;
        for (PatternReading p : r.patterns()) {
            for (Condition c : p.conditions()) {
                for (Test t : c.tests()) {
                    if (t.operator().equals("==") && t.value() instanceof String v) {
                        crew = t.field().equals("crew") && crew == null ? v : crew;
                        agent = t.field().equals("agent") && agent == null ? v : agent;
                    }
                }
            }
            if (signal == null && p.source() instanceof MethodCallExpr m && m.getNameAsString().equals("match")
                    && m.getArguments().size() == 1 && m.getArgument(0) instanceof StringLiteralExpr lit) {
                signal = lit.asString();
                signalLine = p.line();
            }
        }
        List<DecideCall> terminates = r.calls(TERMINATE);
        DecideCall route = r.calls(ROUTE).stream().filter(c -> c.text(1).isPresent()).findFirst().orElse(null);
        List<String> missing = new ArrayList<>();
        if (crew == null) {
            missing.add("Turn( crew == \"...\" )");
        }
        if (agent == null) {
            missing.add("Turn( agent == \"...\" )");
        }
        if (signal == null) {
            missing.add("$said : Said() from $turn.match(\"[SIGNAL]\")");
        }
        if (terminateTier && terminates.isEmpty()) {
            missing.add("decide.terminate($said)");
        }
        if (!terminateTier && route == null) {
            missing.add("decide.route($said, \"agent or group\")");
        }
        int line = r.descr().getLine();
        if (!missing.isEmpty()) {
            errors.add(new BundleError(file, line, 1, "signal rule \"" + r.name() + "\" in agenda-group \"" + group
                    + "\" must name " + String.join(", ", missing) + " (see rules/handoff/README.md)"));
            return;
        }
        DecideCall decided = terminateTier ? terminates.get(0) : route;
        out.add(new SignalRule(r.name(), file, line, crew, agent, signal, signalLine,
                terminateTier ? null : route.text(1).orElseThrow(), decided.line()));
    }
}
