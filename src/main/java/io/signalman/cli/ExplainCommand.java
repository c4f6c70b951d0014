package io.signalman.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Packs;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman explain <pack> <input.json> [--rules DIR] [--json]}: decides one input and
 * shows, in the analysts' own {@code @reason} words, why the winning rule won and why every other
 * rule did not.
 */
final class ExplainCommand {

    private ExplainCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("rules"), Set.of("json"), env);
        if (a.positional().size() != 2) {
            throw new Args.UsageException("explain needs <pack> <input.json>");
        }
        DecisionPack<?, ?> pack = Packs.named(a.positional().get(0)).orElseThrow(() -> new Args.UsageException(
                "no pack \"" + a.positional().get(0) + "\"; packs: " + Packs.all().stream().map(DecisionPack::name).toList()));
        Path rules = Path.of(a.get("rules", "rules"));
        try {
            RuleBundle bundle = Packs.compiler().compile(BundleFiles.read(rules));
            JsonNode input = Json.parse(Files.readAllBytes(Path.of(a.positional().get(1))));
            explain(pack, bundle, input, a.has("json"), out);
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
                                       PrintStream out) throws InputException {
        Decision<D> d = pack.decide(bundle, pack.parseInput(json), true);
        if (asJson) {
            out.println(Json.write(d.toJson(pack.outcomeJson(d.outcome()))));
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
}
