package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded in-flight work: a server admitting 4 requests, with 4 workers held
 * at a gate by the test bundle, gets bursts of 50 times that. Every extra request must be refused
 * 503 {@code overloaded} with Retry-After while the admitted 4 are still held: the refusal came
 * from the event loop (every worker is busy), which is what "immediately" means here without a
 * stopwatch. The heap after a GC must not grow with the bursts (a generous sanity bound).
 */
class OverloadTest {

    private static final Logger LOG = LoggerFactory.getLogger(OverloadTest.class);
    private static final int CAPACITY = 4;
    private static final int BURST = 200;
    private static final int BURSTS = 5;
    private static final long HEAP_BOUND = 64L * 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void pastTheBoundRequestsAreRefused503AtOnceWhileAdmittedWorkRunsAndTheHeapStaysFlat() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ServerConfig config = TestBundles.seedServer().withRules(Brake.rules(tmp)).withFixtures(tmp.resolve("none"))
                .withData(tmp.resolve("data")).withWorkers(CAPACITY)
                .withLimits(RequestLimits.defaults().withMaxInFlight(CAPACITY).withDeadlineMs(60_000));
        Brake.close();
        try (Server server = Server.start(config, Brake.packs())) {
            // Given as many held requests as the server admits, every worker blocked at the gate
            List<CompletableFuture<HttpResponse<String>>> admitted = new ArrayList<>();
            for (int i = 0; i < CAPACITY; i++) {
                admitted.add(client.sendAsync(request(server, "test.held"), HttpResponse.BodyHandlers.ofString()));
            }
            Await.until(Duration.ofSeconds(20), "every admitted request to be held", () -> Brake.held() == CAPACITY);
            long heapBefore = usedHeapAfterGc();

            // When bursts of 50 times the capacity arrive
            int refused = 0;
            for (int b = 0; b < BURSTS; b++) {
                List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
                for (int i = 0; i < BURST; i++) {
                    burst.add(client.sendAsync(request(server, "misc.hello"), HttpResponse.BodyHandlers.ofString()));
                }
                for (CompletableFuture<HttpResponse<String>> f : burst) {
                    HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
                    // Then each is refused, with the error shape and a Retry-After
                    assertEquals(503, r.statusCode(), r.body());
                    assertEquals("overloaded", Json.parse(r.body()).get("error").asText());
                    assertTrue(r.headers().firstValue("retry-after").isPresent(), "Retry-After is set");
                    refused++;
                }
                // ... while the admitted work is still running: nothing waited for a worker
                assertEquals(CAPACITY, Brake.held(), "the admitted requests are still held");
                assertTrue(admitted.stream().noneMatch(CompletableFuture::isDone), "no admitted request has finished");
            }
            long growth = usedHeapAfterGc() - heapBefore;
            LOG.info("refused {} requests past a bound of {}; used heap after GC grew by {} KiB", refused, CAPACITY,
                    growth / 1024);
            assertEquals(BURST * BURSTS, refused);
            assertTrue(growth < HEAP_BOUND, "used heap grew by " + growth / 1024 / 1024 + " MiB over the bursts");

            // And once the gate opens, the admitted requests are decided and the server admits again
            Brake.open();
            for (CompletableFuture<HttpResponse<String>> f : admitted) {
                HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("a held message waits for the test to open the gate", Json.parse(r.body()).get("rule").asText());
            }
            Await.until(Duration.ofSeconds(10), "every slot to be released", () -> server.inFlight() == 0);
            HttpResponse<String> after = client.send(request(server, "misc.hello"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, after.statusCode(), after.body());
            assertFalse(after.headers().firstValue("retry-after").isPresent());
        } finally {
            Brake.open();
        }
    }

    private static HttpRequest request(Server server, String subtype) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/broker/route"))
                .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},"
                        + "\"type\":\"event\",\"subtype\":\"" + subtype + "\"}")).build();
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
