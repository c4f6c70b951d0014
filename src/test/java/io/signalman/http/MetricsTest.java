package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} after real traffic: request counts and latency histograms per
 * route template, rule firings per rule, bundle loads and refusals, error responses by code.
 */
class MetricsTest {

    private static final String TOKEN = "metrics-test-token";
    private static final String TRADE = TestBundles.TRADE_EXECUTED;

    @TempDir
    Path tmp;
    private Path rules;
    private Server server;

    @BeforeEach
    void start() throws Exception {
        rules = TestBundles.copyOfRules(tmp);
        server = Server.start(TestBundles.seedServer().withRules(rules).withFixtures(TestBundles.FIXTURES)
                .withData(tmp.resolve("data")).withAdminToken(TOKEN));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void requestsArePublishedPerRouteTemplateWithALatencyHistogram() {
        // Given five routed messages and actions on two FSM instances
        for (int i = 0; i < 5; i++) {
            assertEquals(200, post("/v1/broker/route", TRADE).statusCode());
        }
        for (String id : new String[] {"m-1", "m-2"}) {
            assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}").statusCode());
            assertEquals(200, post("/v1/fsm/instances/" + id + "/actions", "{\"action\": \"start\"}").statusCode());
        }

        // When the metrics are scraped
        HttpResponse<String> r = get("/metrics");

        // Then they are Prometheus text, counted by route template, never by raw id
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
        String text = r.body();
        assertTrue(value(text, "vertx_http_server_requests_total", "route=\"/v1/broker/route\"", "code=\"200\"").orElse(0) >= 5, text);
        assertEquals(2.0, value(text, "vertx_http_server_requests_total", "route=\"/v1/fsm/instances/:id/actions\"").orElse(0));
        assertFalse(text.contains("m-1"), "a raw instance id became a label");
        assertTrue(value(text, "vertx_http_server_response_time_seconds_bucket", "route=\"/v1/broker/route\"", "le=\"+Inf\"")
                .orElse(0) >= 5, "a latency histogram per route");
        long sizeBuckets = text.lines().filter(l -> l.startsWith("vertx_http_server_response_bytes_bucket")
                && l.contains("route=\"/v1/broker/route\"") && l.contains("code=\"200\"")).count();
        assertEquals(Metrics.SIZE_BUCKETS.length + 1, sizeBuckets, "a handful of size buckets, +Inf included, not ~270");
        assertTrue(value(text, "vertx_http_server_response_bytes_bucket", "route=\"/v1/broker/route\"", "le=\"1024.0\"")
                .orElse(0) >= 5, "a routing answer is under 1 KiB");
    }

    @Test
    void rulesEndpointCountsLiveFiringsApartFromTheGatesReplay() throws Exception {
        // Given a server whose gate replayed the golden history at start-up, and one routed trade
        assertEquals(200, post("/v1/broker/route", TRADE).statusCode());

        // When the rules are listed
        com.fasterxml.jackson.databind.JsonNode rules = io.signalman.json.Json.parse(get("/v1/rules").body()).get("rules");

        // Then "fired" is the live decision only, as Prometheus counts it, and the replay is apart
        com.fasterxml.jackson.databind.JsonNode trade = null;
        long gate = 0;
        for (com.fasterxml.jackson.databind.JsonNode r : rules) {
            gate += r.get("fired_in_gate").asLong();
            if ("trade messages go to VP Trading".equals(r.get("name").asText())) {
                trade = r;
            }
        }
        assertEquals(1, trade.get("fired").asLong(), trade.toString());
        assertTrue(trade.get("fired_in_gate").asLong() > 0, "the golden history has trades: " + trade);
        assertTrue(gate > 0);
        assertEquals(1.0, value(get("/metrics").body(), "signalman_rule_fired_total",
                "rule=\"trade messages go to VP Trading\"").orElse(0));
    }

    @Test
    void everyRuleThatFiredIsCountedByPackAndName() {
        for (int i = 0; i < 3; i++) {
            post("/v1/broker/route", TRADE);
        }

        String text = get("/metrics").body();

        assertEquals(3.0, value(text, "signalman_rule_fired_total", "pack=\"broker\"", "rule=\"trade messages go to VP Trading\"")
                .orElse(0), text);
        assertEquals(3.0, value(text, "signalman_decisions_total", "pack=\"broker\"").orElse(0));
    }

    @Test
    void ruleFiringsContinueAcrossAReload() {
        post("/v1/broker/route", TRADE);
        assertEquals(200, post("/v1/rules/reload", "", TOKEN).statusCode());
        post("/v1/broker/route", TRADE);

        String text = get("/metrics").body();

        assertEquals(2.0, value(text, "signalman_rule_fired_total", "rule=\"trade messages go to VP Trading\"").orElse(0));
    }

    @Test
    void loadsAndRefusedLoadsAreCounted() throws Exception {
        // Given the startup load, an admin reload, and a reload of rules that do not compile
        assertEquals(200, post("/v1/rules/reload", "", TOKEN).statusCode());
        Files.writeString(rules.resolve("broker/broken.drl"), "package rules.broker;\nrule \"broken\" when then nonsense end\n");
        assertEquals(422, post("/v1/rules/reload", "", TOKEN).statusCode());

        String text = get("/metrics").body();

        assertEquals(2.0, value(text, "signalman_reloads_total", "outcome=\"loaded\"").orElse(-1), text);
        assertEquals(1.0, value(text, "signalman_reloads_total", "outcome=\"refused\"").orElse(-1));
        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"bundle_refused\"", "status=\"422\"").orElse(-1));
    }

    @Test
    void rejectionsAreCountedByStatusAndErrorCode() {
        post("/v1/broker/route", "{\"envelope\": {}}");
        post("/v1/broker/route", "{not json");
        post("/v1/rules/reload", "", null);
        post("/v1/fsm/instances", "{\"id\": \"r-1\", \"machine\": \"review-flow\"}");
        post("/v1/fsm/instances/r-1/actions", "{\"action\": \"finish\"}");
        get("/v1/no/such/thing");

        String text = get("/metrics").body();

        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"invalid_input\"", "status=\"400\"").orElse(0), text);
        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"malformed_json\"", "status=\"400\"").orElse(0));
        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"unauthorized\"", "status=\"401\"").orElse(0));
        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"invalid_transition\"", "status=\"409\"").orElse(0));
        assertEquals(1.0, value(text, "signalman_rejections_total", "error=\"not_found\"", "status=\"404\"").orElse(0));
    }

    @Test
    void theJvmsHeapAndCollectionsAndEachStateStoresSizeArePublished() {
        // Given two FSM instances and one conversation
        for (String id : new String[] {"s-1", "s-2"}) {
            assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}").statusCode());
        }
        assertEquals(201, post("/v1/handoff/conversations", "{\"crew\": \"exam\"}").statusCode());

        String text = get("/metrics").body();

        // Then the heap and the collector are there, with each store's entries
        assertTrue(value(text, "jvm_memory_used_bytes", "area=\"heap\"").orElse(0) > 0, text);
        assertTrue(value(text, "jvm_memory_max_bytes", "area=\"heap\"").isPresent(), text);
        assertTrue(text.contains("jvm_gc_"), "GC metrics");
        assertEquals(2.0, value(text, "signalman_state_entries", "store=\"fsm\"").orElse(-1), text);
        assertEquals(1.0, value(text, "signalman_state_entries", "store=\"handoff\"").orElse(-1), text);
        // ... and the data directory's health (issues 17.2, 26)
        assertTrue(text.contains("signalman_storage_available 1.0"), text);
        assertTrue(text.contains("signalman_decision_log_refused_total 0.0"), text);
    }

    /** The sum of a metric's samples whose labels include all of {@code labels}. */
    static OptionalDouble value(String text, String metric, String... labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(metric) + "\\{([^}]*)\\} (\\S+)$").matcher(text);
        double sum = 0;
        boolean found = false;
        while (m.find()) {
            boolean all = true;
            for (String l : labels) {
                all &= ("," + m.group(1) + ",").contains("," + l + ",");
            }
            if (all) {
                sum += Double.parseDouble(m.group(2));
                found = true;
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    private HttpResponse<String> post(String path, String body) {
        return post(path, body, null);
    }

    private HttpResponse<String> post(String path, String body, String token) {
        return ContractServer.sendAs(server.port(), "POST", path, body, token);
    }

    private HttpResponse<String> get(String path) {
        return ContractServer.sendAs(server.port(), "GET", path, null, null);
    }
}
