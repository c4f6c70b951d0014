package io.signalman.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.engine.BundleFiles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reloads racing requests: 100 reloads alternating good and bad rules while clients
 * route messages. Every response must come from one whole good bundle: its revision is one of
 * the good ones and its decision is the one that revision makes. No 5xx, no mixed bundle.
 */
class ReloadRaceTest {

    private static final String MESSAGE = "{\"envelope\":{\"from_agent\":\"tool-smith\",\"priority\":\"normal\"},"
            + "\"type\":\"event\",\"subtype\":\"tool.installed\"}";

    @TempDir
    Path tmp;

    private record Seen(int status, String revision, JsonNode primary) {
    }

    @Test
    void everyResponseComesFromOneWholeGoodBundleWhileGoodAndBadReloadsAlternate() throws Exception {
        String original = Files.readString(TestBundles.RULES.resolve("broker/routing.drl"));
        Map<String, String> variants = Map.of(
                "a", original,
                "b", original.replace(TestBundles.TOOL_ROUTE, TestBundles.TOOL_ROUTE_WITH_TOOL_SMITH),
                "bad", original.replace(TestBundles.TOOL_ROUTE, "decide.primary(\"sr-director-tooling\"")); // missing ')'
        Map<String, JsonNode> expected = Map.of(
                revisionOf(variants.get("a")), Json.parse("[\"sr-director-tooling\"]"),
                revisionOf(variants.get("b")), Json.parse("[\"sr-director-tooling\",\"tool-smith\"]"));
        Path rules = rulesWith(tmp.resolve("live"), variants.get("a"));

        try (Server server = Server.start(TestBundles.seedServer().withRules(rules)
                .withFixtures(tmp.resolve("no-fixtures")).withData(tmp.resolve("data")).withAdminToken("t"))) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI route = URI.create("http://127.0.0.1:" + server.port() + "/v1/broker/route");
            URI reload = URI.create("http://127.0.0.1:" + server.port() + "/v1/rules/reload");
            ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(2);
            List<Future<?>> traffic = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                traffic.add(clients.submit(() -> {
                    while (!done.get()) {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(route).header("content-type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(MESSAGE)).build(), HttpResponse.BodyHandlers.ofString());
                        JsonNode body = Json.parse(r.body());
                        seen.add(new Seen(r.statusCode(), body.path("rules_revision").asText(), body.get("primary_recipients")));
                    }
                    return null;
                }));
            }
            int loaded = 0;
            int refused = 0;
            for (int i = 0; i < 100; i++) {
                boolean good = i % 2 == 0;
                Files.writeString(rules.resolve("broker/routing.drl"), variants.get(good ? (i % 4 == 0 ? "b" : "a") : "bad"));
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(reload).header("authorization", "Bearer t")
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(good ? 200 : 422, r.statusCode(), "reload " + i + ": " + r.body());
                if (good) {
                    loaded++;
                } else {
                    refused++;
                }
            }
            done.set(true);
            for (Future<?> f : traffic) {
                f.get();
            }
            clients.shutdown();

            assertEquals(50, loaded);
            assertEquals(50, refused);
            assertTrue(seen.size() > 100, "traffic ran during the reloads: " + seen.size());
            for (Seen s : seen) {
                assertEquals(200, s.status(), "a request failed during a reload");
                assertTrue(expected.containsKey(s.revision()), "revision " + s.revision() + " is not a good bundle");
                assertEquals(expected.get(s.revision()), s.primary(), "decision and revision disagree: a mixed bundle");
            }
            assertTrue(seen.stream().map(Seen::revision).distinct().count() == 2, "both good bundles served");
        }
    }

    private Path rulesWith(Path dir, String routing) throws Exception {
        Path rules = dir.resolve("rules");
        Files.createDirectories(rules.resolve("broker"));
        Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), rules.resolve("broker/org-chart.json"));
        Files.writeString(rules.resolve("broker/routing.drl"), routing);
        return rules;
    }

    private String revisionOf(String routing) throws Exception {
        return BundleFiles.read(rulesWith(Files.createTempDirectory(tmp, "variant"), routing)).revision();
    }
}
