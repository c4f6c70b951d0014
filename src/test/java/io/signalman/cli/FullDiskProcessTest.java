package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17.2 on a real full disk: {@code signalman serve} with its decision log on a 3 MB tmpfs
 * that a filler file nearly fills. Needs {@code mount -t tmpfs} (root, or a machine that allows
 * it); skipped where it cannot mount. Bounded: about 2,000 requests.
 */
class FullDiskProcessTest {

    private static final String MESSAGE = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
            + " \"type\": \"event\", \"subtype\": \"trade.executed\"}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path data;

    @Test
    void aFullDiskStopsAcknowledgementLosesNothingAcknowledgedAndServiceResumesWhenSpaceReturns() throws Exception {
        Path decisions = data.resolve("decisions");
        Files.createDirectories(decisions);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", decisions.toString()) == 0,
                "this machine does not let the test mount a tmpfs");
        try {
            // Given a decision log with about 400 KB left
            Path filler = decisions.resolve("filler.bin");
            Files.write(filler, new byte[2_700_000]);
            Set<String> acknowledged = new HashSet<>();
            try (ServeProcess server = ServeProcess.start(data, Map.of())) {
                int port = server.port();
                // When decisions are asked for until the disk is full
                HttpResponse<String> refused = null;
                for (int i = 0; i < 2_000 && refused == null; i++) {
                    HttpResponse<String> r = send(port, "POST", "/v1/broker/route", MESSAGE);
                    if (r.statusCode() == 200) {
                        acknowledged.add(Json.parse(r.body()).get("decision_id").asText());
                    } else {
                        refused = r;
                    }
                }
                // Then they are refused: 503 decision_log_unavailable with Retry-After, and /ready is 503
                assertTrue(refused != null, "2,000 decisions fit: the disk never filled");
                assertEquals(503, refused.statusCode(), refused.body());
                assertEquals("decision_log_unavailable", Json.parse(refused.body()).get("error").asText());
                assertTrue(refused.headers().firstValue("retry-after").isPresent());
                assertEquals(503, send(port, "GET", "/ready", null).statusCode());
                assertEquals(200, send(port, "GET", "/health", null).statusCode(), "the process stays live");

                // When space returns, service resumes by itself
                Files.delete(filler);
                Await.until(Duration.ofSeconds(30), "/ready to be 200 again", () -> send(port, "GET", "/ready", null).statusCode() == 200);
                for (int i = 0; i < 20; i++) {
                    HttpResponse<String> r = send(port, "POST", "/v1/broker/route", MESSAGE);
                    assertEquals(200, r.statusCode(), r.body());
                    acknowledged.add(Json.parse(r.body()).get("decision_id").asText());
                }
                server.process().destroy();
                server.waitFor(Duration.ofSeconds(60));
                assertTrue(server.output().contains("decision log cannot write"), server.output());
            }
            // ... and the log holds every acknowledged decision, whole lines only: it replays (against the rules it served)
            Archive archive = Archive.read(List.of(decisions));
            Set<String> logged = new HashSet<>();
            archive.files().forEach(f -> {
                assertEquals(List.of(), f.problems(), "a broken line in " + f.path());
                f.entries().forEach(e -> logged.add(e.record().decisionId()));
            });
            Set<String> missing = new HashSet<>(acknowledged);
            missing.removeAll(logged);
            assertEquals(Set.of(), missing, "acknowledged but not in the log");
            CliRunner.Result replay = CliRunner.run("replay", "--rules", TestBundles.RULES.toString(), decisions.toString());
            assertEquals(0, replay.code(), replay.out() + replay.err());
        } finally {
            run("umount", "-l", decisions.toString());
        }
    }

    private static int run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static HttpResponse<String> send(int port, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
