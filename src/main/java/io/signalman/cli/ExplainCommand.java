package io.signalman.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.engine.BundleCompiler;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.engine.explain.Check;
import io.signalman.engine.explain.RuleCheck;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman explain <pack> <input.json> [--rules DIR] [--json] [--why-not RULE]}: decides
 * one input and shows, in the analysts' own {@code @reason} words, why the winning rule won and,
 * for every rule that did not match, the constraint that failed and the value it saw. With
 * {@code --why-not}, every constraint of that one rule with its result and values.
 */
final class ExplainCommand {

    private ExplainCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, BudgetFlags.with(Set.of("rules", "why-not")), Set.of("json"), env);
        BudgetFlags.apply(a);
        if (a.positional().size() != 2) {
            throw new Args.UsageException("explain needs <pack> <input.json> (examples/<pack>/ has one input per pack)");
        }
        DecisionPack<?, ?> pack = Packs.named(a.positional().get(0)).orElseThrow(() -> new Args.UsageException(
                "no pack \"" + a.positional().get(0) + "\"; packs: " + Packs.all().stream().map(DecisionPack::name).toList()));
        Path rules = Path.of(a.get("rules", "rules"));
        try {
            // Only the pack asked about is compiled: an explanation never needs the others' rules.
            BundleFiles all = BundleFiles.read(rules);
            Map<String, byte[]> own = new java.util.TreeMap<>();
            all.paths().stream().filter(p -> pack.definition().includes(p)).forEach(p -> own.put(p, all.bytes(p)));
            RuleBundle bundle = new BundleCompiler(List.of(pack.definition()), Clock.systemUTC())
                    .compile(BundleFiles.of(all.root(), own));
            JsonNode input = Json.parse(Files.readAllBytes(Path.of(a.positional().get(1))));
            String whyNot = a.get("why-not", null);
            List<String> names = bundle.requirePack(pack.name()).rules().stream().map(RuleInfo::name).toList();
            if (whyNot != null && !names.contains(whyNot)) {
                err.println("signalman explain: pack " + pack.name() + " has no rule \"" + whyNot + "\"; its rules:");
                names.forEach(n -> err.println("  " + n));
                return 1;
            }
            explain(pack, bundle, input, a.has("json"), whyNot, out);
            return 0;
        } catch (BundleException e) {
            e.errors().forEach(x -> err.println(CheckCommand.located(rules, x, "error")));
            return 1;
        } catch (InputException e) {
            err.println("signalman explain: " + (e.field().isEmpty() ? "" : e.field() + ": ") + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("signalman explain: cannot read " + a.positional().get(1) + ": " + e.getMessage());
            return 1;
        }
    }

    private static <I, D> void explain(DecisionPack<I, D> pack, RuleBundle bundle, JsonNode json, boolean asJson,
                                       String whyNot, PrintStream out) throws InputException {
        Decision<D> d = pack.decide(bundle, pack.parseInput(json), true);
        if (asJson) {
            ObjectNode body = d.toJson(pack.outcomeJson(d.outcome()));
            if (whyNot != null) {
                body.set("why_not", d.whyNotJson(whyNot));
            }
            out.println(Json.write(body));
            return;
        }
        if (whyNot != null) {
            whyNot(d, whyNot, out);
            return;
        }
        RuleInfo by = d.decidedBy();
        out.println(by == null ? "no rule decided" : "decided by \"" + by.name() + "\" (" + by.file() + ":" + by.line() + ")");
        if (by != null) {
            out.println("  because " + by.reason());
        }
        pack.outcomeJson(d.outcome()).fields().forEachRemaining(f -> out.println("  " + f.getKey() + ": " + Json.write(f.getValue())));
        out.println("rules considered, in firing order:");
        for (Evaluation.Considered c : d.evaluation().explain()) {
            RuleInfo r = c.rule();
            out.printf("  %-22s %s  (%s:%d, %s, salience %d)%n", c.status().wire(), "\"" + r.name() + "\"", r.file(), r.line(),
                    r.agendaGroup(), r.salience());
            out.println("  " + " ".repeat(22) + " " + Decision.why(c, by));
        }
    }

    /** One rule's every constraint: where it is, how it took part, and what each constraint saw. */
    private static void whyNot(Decision<?> d, String rule, PrintStream out) {
        Evaluation.Considered c = d.evaluation().considered(rule);
        RuleCheck check = d.evaluation().explainer().check(rule);
        RuleInfo r = c.rule();
        out.printf("\"%s\" (%s:%d, %s, salience %d): %s%n", r.name(), r.file(), r.line(), r.agendaGroup(), r.salience(),
                c.status().wire());
        out.println("  " + Decision.why(c, d.decidedBy()));
        out.println("constraints, in the rule's order:");
        for (Check k : check.checks()) {
            String result = k.result() == null ? "?" : k.result().toString();
            out.printf("  %-5s  %s:%d  %s( %s )%n", result, r.file(), k.line(), k.pattern(), k.constraint());
            out.println("         " + k.sentence());
        }
    }
}
