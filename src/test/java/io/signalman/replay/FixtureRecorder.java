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

    /** The messages of a table, a line each: "ID SENDER PRIORITY TYPE [SUBTYPE]" (no subtype: the empty one). */
    static List<String> messages(String table) {
        return table.lines().map(line -> line.trim().split(" +")).map(m -> msg(m[0], m[1], m[2], m[3], m.length > 4 ? m[4] : ""))
                .toList();
    }

    /** One or more messages for every rule and every edge case the issue names. */
    static List<String> crafted() {
        return messages("""
                crit-trade                 foresight         critical event      trade.executed
                crit-trade-unauthorized    tool-smith        critical event      trade.failed
                crit-memory                memory-service    critical event      memory.committed
                crit-escalation            indecision-engine critical escalation signal.stale
                crit-unknown               stranger          critical event      misc.hello
                auth-content-from-trader   foresight         normal   event      content.published
                auth-trade-from-tooling    tool-smith        normal   event      trade.executed
                auth-trade-from-signals    indecision-engine high     event      trade.executed
                auth-signal-from-trader    sports-agent      normal   event      signal.published
                auth-offline-from-tooling  tool-smith        normal   event      service.offline
                auth-memory-from-content   content-writer    low      event      memory.committed
                esc-foresight              foresight         normal   escalation trade.halted
                esc-outside-authority      tool-smith        normal   escalation trade.executed
                esc-openclaw               openclaw          high     escalation budget.approved
                esc-knox                   knox              normal   escalation misc.hello
                esc-unknown                stranger          normal   escalation service.offline
                trade-executed             foresight         normal   event      trade.executed
                trade-completed            perpetuals-bot    normal   event      trade.completed
                trade-entry                political-agent   low      event      trade.entry
                trade-report               sports-agent      normal   event      trade.report
                trade-from-unknown         stranger          normal   event      trade.executed
                signal-registry            indecision-engine normal   event      signal.published
                signal-registry-low        indecision-engine low      event      signal.published
                signal-unrestricted-sender data-engineer     normal   event      signal.published
                service-offline            sentinel          normal   event      service.offline
                service-offline-watchdog   watchdog          high     event      service.offline
                service-online             nats-bridge       normal   event      service.online
                service-degraded           djed              normal   event      service.degraded
                content-published          content-writer    normal   event      content.published
                content-draft              social-agent      normal   event      content.draft
                memory-committed           memory-service    normal   event      memory.committed
                memory-committed-foresight foresight         normal   event      memory.committed
                report-pnl                 foresight         normal   event      pnl.report
                report-sla                 watchdog          normal   event      sla.report
                report-audience            content-writer    normal   event      audience.report
                report-tool                data-engineer     normal   event      tool.report
                report-unknown             stranger          normal   event      pnl.report
                report-cfo                 cfo               normal   event      pnl.report
                tool-installed             tool-smith        normal   event      tool.installed
                tool-failed                data-engineer     high     event      tool.failed
                default-unknown            stranger          low      event      misc.hello
                default-knox               knox              normal   event      misc.hello
                default-empty-subtype      openclaw          normal   status
                default-command            data-engineer     normal   command    deploy.requested
                """);
    }

    /** Messages under an org chart that has no trading agent: the seed's fallback list decides. */
    static List<String> noTraders() {
        return messages("""
                fallback-signal          indecision-engine normal   event signal.published
                fallback-signal-high     indecision-engine high     event signal.published
                fallback-critical-signal indecision-engine critical event signal.published
                fallback-other-signal    indecision-engine normal   event signal.stale
                fallback-trade           foresight         normal   event trade.executed
                """);
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
