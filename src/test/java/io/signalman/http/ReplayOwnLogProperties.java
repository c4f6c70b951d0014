package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.Await;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.Replayer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The property that matters: for any valid request on any decision endpoint, the
 * server's own decision log, replayed with the same rules by {@link Replayer}, changes nothing.
 * Requests carry generated decimals (many digits, exponents, trailing zeros) where rules read
 * numbers, and generated text, so a value the log did not keep exactly shows up as a change.
 */
@AddLifecycleHook(TestServer.ForProperties.class)
class ReplayOwnLogProperties {

    private static final TestServer server = TestServer.starting(dir -> Server.start(ServerConfig.defaults().withPort(0).withData(dir)));
    private static final AtomicInteger IDS = new AtomicInteger();

    /** One request: where it goes, its body, and what it needs first (an FSM instance, a conversation). */
    record Request(String path, String body, String setupPath, String setupBody) {
        @Override
        public String toString() {
            return "POST " + path + " " + body;
        }
    }

    @Property(tries = 80)
    void replayingTheServersOwnLogWithTheSameRulesChangesNothing(@ForAll("requests") Request request) throws Exception {
        // Given a valid request, decided by the server
        if (request.setupPath() != null) {
            int created = post(request.setupPath(), request.setupBody()).statusCode();
            assertEquals(201, created, request.setupBody());
        }
        HttpResponse<String> r = post(request.path(), request.body());
        assertTrue(r.statusCode() == 200 || r.statusCode() == 409 && r.body().contains("decision_id"), r.body());
        Set<String> ids = new HashSet<>();
        JsonNode answer = Json.parse(r.body());
        (answer.isArray() ? answer : Json.array().add(answer)).forEach(d -> ids.add(d.get("decision_id").asText()));

        // When its records are read back from the log and replayed against the same rules
        Archive mine = Await.value(Duration.ofSeconds(10), "the decisions to be logged", () -> only(ids));

        // Then nothing changed and no invariant broke
        ReplayReport report = new Replayer(server.server().engine().bundle(), null, null).replay(mine);
        assertEquals(ids.size(), report.counts().records());
        assertEquals(List.of(), report.changes(), () -> report.toText());
        assertEquals(List.of(), report.violations(), () -> report.toText());
        assertEquals(List.of(), report.problems());
    }

    /**
     * The server's own log lines of {@code ids}, byte for byte, as an archive of their own; null
     * until all of them are written.
     */
    private static Archive only(Set<String> ids) {
        try {
            List<String> lines = new ArrayList<>();
            try (var files = Files.list(server.dir().resolve("decisions"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                    for (String line : Files.readAllLines(f)) {
                        if (!line.isBlank() && ids.contains(Json.parse(line).get("decision_id").asText())) {
                            lines.add(line);
                        }
                    }
                }
            }
            if (lines.size() != ids.size()) {
                return null;
            }
            Path mine = Files.createTempFile(server.dir(), "try-", ".jsonl");
            Files.write(mine, lines);
            return Archive.read(List.of(mine));
        } catch (java.io.IOException | io.signalman.json.InputException e) {
            throw new IllegalStateException(e);
        }
    }

    @Provide
    Arbitrary<Request> requests() {
        return Arbitraries.oneOf(broker(), brokerBatch(), signals(), dispatch(), fsm(), handoff());
    }

    /** Decimals as JSON writes them: many digits, exponents both ways, trailing zeros, negative zero. */
    private static Arbitrary<BigDecimal> decimals() {
        Arbitrary<BigDecimal> wide = Combinators.combine(Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(),
                BigInteger.TEN.pow(30)), Arbitraries.integers().between(-20, 60)).as(BigDecimal::new);
        return Arbitraries.oneOf(wide, Arbitraries.of(new BigDecimal("0.7"), new BigDecimal("0.70"),
                new BigDecimal("0.6999999999999999999999999"), new BigDecimal("0.1000000000000000000000000001"),
                new BigDecimal("7E-1"), new BigDecimal("-0.0"), new BigDecimal("1E+300")));
    }

    private static Arbitrary<String> texts() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(24),
                Arbitraries.of("/go", "[QUESTION]", "[END]", "déjà vu", "tiếng Việt", "🙂 [ route  executor ]", ""));
    }

    private static Arbitrary<JsonNode> payloads() {
        return Combinators.combine(decimals(), Arbitraries.of(true, false), texts(), decimals().list().ofMaxSize(3))
                .as((n, flag, text, list) -> {
                    ObjectNode p = Json.object();
                    p.put("quality", n).put("approved", flag).put("budget_exhausted", !flag).put("command", text);
                    ArrayNode a = p.putArray("scores");
                    list.forEach(a::add);
                    return p;
                });
    }

    private static Arbitrary<ObjectNode> brokerMessages() {
        Arbitrary<String> subtypes = Combinators.combine(Arbitraries.of("trade.", "service.", "content.", "tool.", "memory.",
                "signal.", "pnl."), Arbitraries.of("executed", "published", "committed", "offline", "report"))
                .as(String::concat);
        return Combinators.combine(Arbitraries.of("foresight", "indecision-engine", "cfo", "nobody"),
                Arbitraries.of("low", "normal", "high", "critical"), Arbitraries.of("event", "escalation"), subtypes, payloads())
                .as((from, priority, type, subtype, payload) -> {
                    ObjectNode m = Json.object();
                    m.putObject("envelope").put("from_agent", from).put("priority", priority);
                    m.put("type", type).put("subtype", subtype).set("payload", payload);
                    return m;
                });
    }

    private static Arbitrary<Request> broker() {
        return brokerMessages().map(m -> new Request("/v1/broker/route", Json.write(m), null, null));
    }

    private static Arbitrary<Request> brokerBatch() {
        return brokerMessages().list().ofMinSize(1).ofMaxSize(4).map(list -> {
            ArrayNode a = Json.array();
            list.forEach(a::add);
            return new Request("/v1/broker/route:batch", Json.write(a), null, null);
        });
    }

    private static Arbitrary<Request> signals() {
        return Combinators.combine(Arbitraries.of("reviewer", "planner", "summarizer", "x"),
                Arbitraries.of("user_message", "tool_result", "stop", "timer", "custom:deploy"), payloads())
                .as((agent, kind, payload) -> {
                    ObjectNode s = Json.object().put("agent", agent);
                    s.putObject("signal").put("kind", kind).set("payload", payload);
                    return new Request("/v1/signals/route", Json.write(s), null, null);
                });
    }

    private static Arbitrary<Request> dispatch() {
        return Combinators.combine(Arbitraries.of("telegram", "Slack", "discord"), Arbitraries.of("-100123", "T001", "42"),
                Arbitraries.of(true, false), texts(), Arbitraries.integers().between(0, 9).list().ofMaxSize(12))
                .as((channel, chat, mentioned, message, calls) -> {
                    ObjectNode d = Json.object().put("channel", channel).put("sender", "U1").put("mentioned", mentioned)
                            .put("message", message);
                    d.putObject("chat").put("type", "group").put("id", chat);
                    ArrayNode h = d.putArray("history");
                    calls.forEach(c -> h.addObject().put("role", "assistant").put("tool_calls", c));
                    return new Request("/v1/dispatch", Json.write(d), null, null);
                });
    }

    private static Arbitrary<Request> fsm() {
        return Combinators.combine(Arbitraries.of("review-flow", "transaction"), Arbitraries.of("start", "review", "begin",
                "commit", "finish"), payloads()).as((machine, action, payload) -> {
                    String id = "prop-" + IDS.incrementAndGet();
                    ObjectNode a = Json.object().put("action", action);
                    a.set("payload", payload);
                    return new Request("/v1/fsm/instances/" + id + "/actions", Json.write(a), "/v1/fsm/instances",
                            Json.write(Json.object().put("id", id).put("machine", machine)));
                });
    }

    private static Arbitrary<Request> handoff() {
        return Combinators.combine(texts(), Arbitraries.integers().between(0, 3)).as((text, calls) -> {
            String id = "prop-" + IDS.incrementAndGet();
            return new Request("/v1/handoff/conversations/" + id + "/turns", Json.write(Json.object().put("agent", "teacher")
                    .put("response", text).put("tool_calls", calls)), "/v1/handoff/conversations",
                    Json.write(Json.object().put("crew", "exam").put("id", id)));
        });
    }

    private static HttpResponse<String> post(String path, String body) {
        return HttpCalls.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
