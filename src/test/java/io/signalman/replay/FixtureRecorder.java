package io.signalman.replay;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Records the broker's golden history the way production does: starts a real server, posts every
 * message over HTTP, and keeps the decision log it wrote. Run with {@code make fixtures}; the
 * result is checked against the hand-written reference router by {@code BrokerFixturesTest}, so a
 * recording is never its own proof.
 */
public final class FixtureRecorder {

    static final String[] SENDERS = {"knox", "openclaw", "cfo", "vp-trading", "vp-engineering", "vp-content",
        "sr-director-signals", "sr-director-tooling", "foresight", "sports-agent", "political-agent", "perpetuals-bot",
        "indecision-engine", "mission-control", "sentinel", "memory-service", "advisory-system", "content-writer",
        "social-agent", "tool-smith", "risk-monitor", "treasury-agent", "nats-bridge", "watchdog", "djed", "data-engineer",
        "stranger", "new-bot"};
    static final String[] PRIORITIES = {"low", "normal", "normal", "normal", "high", "critical"};
    static final String[] TYPES = {"event", "event", "event", "escalation", "command", "status"};
    static final String[] SUBTYPES = {"trade.executed", "trade.completed", "trade.entry", "trade.halted", "trade.failed",
        "trade.report", "signal.published", "signal.consumed", "signal.stale", "service.offline", "service.online",
        "service.degraded", "content.published", "content.draft", "memory.committed", "memory.pruned", "pnl.report",
        "sla.report", "audience.report", "tool.installed", "tool.failed", "tool.report", "misc.hello", "budget.approved",
        "risk.breach", "funding.rate", "treasury.payout", "alert.raised", ""};

    private FixtureRecorder() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "replay-fixtures");
        if (args.length < 2 || args[1].equals("all") || args[1].contains("broker")) {
            recordBroker(out);
        }
        if (args.length < 2 || args[1].equals("all") || args[1].contains("signals")) {
            SignalsFsmFixtures.record(out);
        }
        if (args.length < 2 || args[1].equals("all") || args[1].contains("dispatch")) {
            DispatchFixtures.record(out);
        }
        if (args.length < 2 || args[1].equals("all") || args[1].contains("handoff")) {
            HandoffFixtures.recordInto(out);
        }
    }

    static void recordBroker(Path out) throws Exception {
        record(TestBundles.LIVE_RULES, crafted(), seeded(320, 20261121L), out.resolve("broker/history.jsonl"));
        Path scenario = out.resolve("broker/registry-without-traders");
        Path rules = Files.createTempDirectory("signalman-no-traders");
        Path copy = TestBundles.copyOfRules(TestBundles.LIVE_RULES, rules);
        Files.copy(scenario.resolve("reference/broker/org-chart.json"), copy.resolve("broker/org-chart.json"),
                StandardCopyOption.REPLACE_EXISTING);
        record(copy, noTraders(), List.of(), scenario.resolve("history.jsonl"));
    }

    static String msg(String id, String from, String priority, String type, String subtype) {
        return "{\"id\":\"" + id + "\",\"envelope\":{\"from_agent\":\"" + from + "\",\"priority\":\"" + priority
                + "\"},\"type\":\"" + type + "\",\"subtype\":\"" + subtype + "\",\"payload\":{\"note\":\"" + id + "\"}}";
    }

    /** One or more messages for every rule and every edge case the issue names. */
    static List<String> crafted() {
        return List.of(
                msg("crit-trade", "foresight", "critical", "event", "trade.executed"),
                msg("crit-trade-unauthorized", "tool-smith", "critical", "event", "trade.failed"),
                msg("crit-memory", "memory-service", "critical", "event", "memory.committed"),
                msg("crit-escalation", "indecision-engine", "critical", "escalation", "signal.stale"),
                msg("crit-unknown", "stranger", "critical", "event", "misc.hello"),
                msg("auth-content-from-trader", "foresight", "normal", "event", "content.published"),
                msg("auth-trade-from-tooling", "tool-smith", "normal", "event", "trade.executed"),
                msg("auth-trade-from-signals", "indecision-engine", "high", "event", "trade.executed"),
                msg("auth-signal-from-trader", "sports-agent", "normal", "event", "signal.published"),
                msg("auth-offline-from-tooling", "tool-smith", "normal", "event", "service.offline"),
                msg("auth-memory-from-content", "content-writer", "low", "event", "memory.committed"),
                msg("esc-foresight", "foresight", "normal", "escalation", "trade.halted"),
                msg("esc-outside-authority", "tool-smith", "normal", "escalation", "trade.executed"),
                msg("esc-openclaw", "openclaw", "high", "escalation", "budget.approved"),
                msg("esc-knox", "knox", "normal", "escalation", "misc.hello"),
                msg("esc-unknown", "stranger", "normal", "escalation", "service.offline"),
                msg("trade-executed", "foresight", "normal", "event", "trade.executed"),
                msg("trade-completed", "perpetuals-bot", "normal", "event", "trade.completed"),
                msg("trade-entry", "political-agent", "low", "event", "trade.entry"),
                msg("trade-report", "sports-agent", "normal", "event", "trade.report"),
                msg("trade-from-unknown", "stranger", "normal", "event", "trade.executed"),
                msg("signal-registry", "indecision-engine", "normal", "event", "signal.published"),
                msg("signal-registry-low", "indecision-engine", "low", "event", "signal.published"),
                msg("signal-unrestricted-sender", "data-engineer", "normal", "event", "signal.published"),
                msg("service-offline", "sentinel", "normal", "event", "service.offline"),
                msg("service-offline-watchdog", "watchdog", "high", "event", "service.offline"),
                msg("service-online", "nats-bridge", "normal", "event", "service.online"),
                msg("service-degraded", "djed", "normal", "event", "service.degraded"),
                msg("content-published", "content-writer", "normal", "event", "content.published"),
                msg("content-draft", "social-agent", "normal", "event", "content.draft"),
                msg("memory-committed", "memory-service", "normal", "event", "memory.committed"),
                msg("memory-committed-foresight", "foresight", "normal", "event", "memory.committed"),
                msg("report-pnl", "foresight", "normal", "event", "pnl.report"),
                msg("report-sla", "watchdog", "normal", "event", "sla.report"),
                msg("report-audience", "content-writer", "normal", "event", "audience.report"),
                msg("report-tool", "data-engineer", "normal", "event", "tool.report"),
                msg("report-unknown", "stranger", "normal", "event", "pnl.report"),
                msg("report-cfo", "cfo", "normal", "event", "pnl.report"),
                msg("tool-installed", "tool-smith", "normal", "event", "tool.installed"),
                msg("tool-failed", "data-engineer", "high", "event", "tool.failed"),
                msg("default-unknown", "stranger", "low", "event", "misc.hello"),
                msg("default-knox", "knox", "normal", "event", "misc.hello"),
                msg("default-empty-subtype", "openclaw", "normal", "status", ""),
                msg("default-command", "data-engineer", "normal", "command", "deploy.requested"));
    }

    /** Messages under an org chart that has no trading agent: the seed's fallback list decides. */
    static List<String> noTraders() {
        return List.of(
                msg("fallback-signal", "indecision-engine", "normal", "event", "signal.published"),
                msg("fallback-signal-high", "indecision-engine", "high", "event", "signal.published"),
                msg("fallback-critical-signal", "indecision-engine", "critical", "event", "signal.published"),
                msg("fallback-other-signal", "indecision-engine", "normal", "event", "signal.stale"),
                msg("fallback-trade", "foresight", "normal", "event", "trade.executed"));
    }

    /** A deterministic sample of the whole vocabulary (same seed, same history). */
    static List<String> seeded(int n, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(msg(String.format("h-%04d", i), SENDERS[r.nextInt(SENDERS.length)], PRIORITIES[r.nextInt(PRIORITIES.length)],
                    TYPES[r.nextInt(TYPES.length)], SUBTYPES[r.nextInt(SUBTYPES.length)]));
        }
        return out;
    }

    static void record(Path rules, List<String> crafted, List<String> seeded, Path target) throws Exception {
        record(rules, "/v1/broker/route", crafted, seeded, target);
    }

    /** Posts every body to {@code endpoint} of a real server on {@code rules} and keeps its decision log as {@code target}. */
    static void record(Path rules, String endpoint, List<String> crafted, List<String> seeded, Path target) throws Exception {
        Path data = Files.createTempDirectory("signalman-record");
        List<String> all = new ArrayList<>(crafted);
        all.addAll(seeded);
        // No gate: a recording is made after a change, before the history is accepted.
        try (Server server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withData(data)
                .withFixtures(data.resolve("no-fixtures")))) {
            HttpClient http = HttpClient.newHttpClient();
            for (String body : all) {
                HttpResponse<String> res = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.port() + endpoint))
                        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (res.statusCode() != 200) {
                    throw new IllegalStateException(res.statusCode() + " for " + body + ": " + res.body());
                }
            }
        }
        Files.createDirectories(target.getParent());
        try (Stream<Path> logs = Files.list(data.resolve("decisions"))) {
            Path log = logs.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
            Files.copy(log, target, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println("recorded " + all.size() + " decisions into " + target);
    }
}
