package io.signalman.signals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Tier precedence for any saliences: over generated rule sets with one route per
 * tier, each behind its own predicate, the first tier whose route matches decides, whatever the
 * numbers; a failing predicate falls through; and adding a plugin route never changes what the
 * strategy or agent tier decided. Each try compiles two bundles, so the tries are few.
 */
class SignalTierProperties {

    private static final String ROUTE = """
            rule "%s route"
                @reason("%s tier route")
                agenda-group "%s" activation-group "signal-route" salience %d
            when
                Signal( kind == "user_message"%s )
            then
                decide.action("transition", "%s");
            end
            """;

    @Property(tries = 6)
    void theFirstTierWithAMatchDecidesWhateverTheSaliences(
            @ForAll @IntRange(min = -1_000_000, max = 1_000_000) int strategy,
            @ForAll @IntRange(min = -1_000_000, max = 1_000_000) int agent,
            @ForAll @IntRange(min = -1_000_000, max = 1_000_000) int plugin) throws IOException {
        RuleBundle all = bundle(strategy, agent, plugin, true);
        RuleBundle withoutPlugin = bundle(strategy, agent, plugin, false);
        for (boolean s : new boolean[] {true, false}) {
            for (boolean a : new boolean[] {true, false}) {
                String expected = s ? "strategy" : a ? "agent" : "plugin";
                SignalDecision d = decide(all, s, a);
                assertEquals(expected, d.tier().agendaGroup(), "saliences " + strategy + "/" + agent + "/" + plugin);
                assertEquals(expected, d.actionValue());
                if (s || a) {
                    assertEquals(d, decide(withoutPlugin, s, a), "a plugin route changed a higher tier's decision");
                } else {
                    assertEquals(true, decide(withoutPlugin, s, a).unrouted());
                }
            }
        }
    }

    private static SignalDecision decide(RuleBundle bundle, boolean strategyPredicate, boolean agentPredicate) {
        var payload = Json.object().put("strategy", strategyPredicate).put("agent", agentPredicate);
        return Packs.SIGNALS.decide(bundle, new SignalStep("anyone", "user_message", payload, null), false).outcome();
    }

    private static RuleBundle bundle(int strategy, int agent, int plugin, boolean withPlugin) throws IOException {
        Path dir = Files.createTempDirectory("tiers").resolve("rules");
        Files.createDirectories(dir.resolve("signals"));
        StringBuilder drl = new StringBuilder("""
                package signalman.signals.generated;
                import io.signalman.signals.Signal;
                global io.signalman.signals.RouteAction decide;
                """);
        drl.append(String.format(ROUTE, "strategy", "strategy", "strategy", strategy, ", flag(\"strategy\")", "strategy"));
        drl.append(String.format(ROUTE, "agent", "agent", "agent", agent, ", flag(\"agent\")", "agent"));
        if (withPlugin) {
            drl.append(String.format(ROUTE, "plugin", "plugin", "plugin", plugin, "", "plugin"));
        }
        Files.writeString(dir.resolve("signals/routes.drl"), drl);
        return TestBundles.compile(dir);
    }
}
