package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Issues 17.2 and 26.3 on a full disk, through a real {@code signalman serve}: once the disk
 * refuses writes, every endpoint that would change something answers 503 {@code storage_unavailable}
 * with {@code Retry-After} and changes nothing (a refused FSM action or turn does not move, a
 * refused create does not exist), the condition is logged once (no stack traces), {@code /ready}
 * says why while {@code /health} stays live; a SIGTERM while the disk is full exits 0 losing
 * nothing acknowledged; when space returns service resumes by itself and the refused keys run.
 * Twice: with the whole data directory on a 3 MB tmpfs a filler file fills (skipped where the test
 * cannot mount one), and with the write-failure seam ({@code -Dsignalman.test.disk-full-while}),
 * which needs no mount.
 */
class FullDiskProcessTest {

    private static final String MESSAGE = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
            + " \"type\": \"event\", \"subtype\": \"trade.executed\"}";
    private static final String TURN = "{\"agent\": \"triage\", \"response\": \"noted\", \"tool_calls\": 0}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    /** How a test fills and frees the disk. */
    private interface Filling {
        void fill() throws IOException;

        void free() throws IOException;
    }

    @Test
    void onATmpfsThatFillsUp() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", data.toString()) == 0,
                "this machine does not let the test mount a tmpfs (the seam test covers it)");
        try {
            Path filler = data.resolve("filler.bin");
            aFullDiskChangesNothingSaysSoOnceAndLosesNothing(data, List.of(), new Filling() {
                @Override
                public void fill() throws IOException {
                    long free = Files.getFileStore(data).getUsableSpace();
                    Files.write(filler, new byte[(int) Math.max(0, free - 16 * 1024)]);
                }

                @Override
                public void free() throws IOException {
                    Files.delete(filler);
                }
            });
        } finally {
            run("umount", "-l", data.toString());
        }
    }

    @Test
    void withTheWriteFailureSeam() throws Exception {
        Path data = dir.resolve("data");
        Path full = dir.resolve("disk-is-full");
        aFullDiskChangesNothingSaysSoOnceAndLosesNothing(data, List.of("-Dsignalman.test.disk-full-while=" + full), new Filling() {
            @Override
            public void fill() throws IOException {
                Files.createFile(full);
            }

            @Override
            public void free() throws IOException {
                Files.delete(full);
            }
        });
    }

    private void aFullDiskChangesNothingSaysSoOnceAndLosesNothing(Path data, List<String> jvm, Filling disk) throws Exception {
        Path log = dir.resolve("serve.log");
        Set<String> acknowledged = new HashSet<>();
        String moved;
        try (ServeProcess server = ServeProcess.launch(data, log, Map.of(), jvm).awaitServing(Duration.ofSeconds(120))) {
            int port = server.port();
            // Given a decision, an FSM instance moved by a keyed action and a conversation, acknowledged
            acknowledged.add(decisionId(send(port, "POST", "/v1/broker/route", MESSAGE, null), 200));
            send(port, "POST", "/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}", null);
            moved = send(port, "POST", "/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}", "k0").body();
            acknowledged.add(Json.parse(moved).get("decision_id").asText());
            send(port, "POST", "/v1/handoff/conversations", "{\"crew\": \"support\", \"id\": \"c1\"}", null);

            // When the disk fills up
            disk.fill();

            // Then every change is refused with 503 storage_unavailable and Retry-After (the first
            // decision may still find room in a page the disk had: keep asking until one is refused)
            HttpResponse<String> refused = null;
            for (int i = 0; i < 500 && refused == null; i++) {
                HttpResponse<String> r = send(port, "POST", "/v1/broker/route", MESSAGE, null);
                if (r.statusCode() == 200) {
                    acknowledged.add(Json.parse(r.body()).get("decision_id").asText());
                } else {
                    refused = r;
                }
            }
            assertTrue(refused != null, "500 decisions fit on a full disk");
            assertStorageUnavailable(refused);
            assertTrue(refused.headers().firstValue("retry-after").isPresent());
            assertStorageUnavailable(send(port, "POST", "/v1/fsm/instances", "{\"id\": \"r2\", \"machine\": \"review-flow\"}",
                    null));
            assertStorageUnavailable(send(port, "POST", "/v1/fsm/instances/r1/actions",
                    "{\"action\": \"review\", \"payload\": {\"quality\": 0.5}}", "k1"));
            assertStorageUnavailable(send(port, "POST", "/v1/handoff/conversations/c1/turns", TURN, "k2"));
            for (int i = 0; i < 50; i++) {
                assertStorageUnavailable(send(port, "POST", "/v1/broker/route", MESSAGE, null));
            }
            // ... and nothing changed
            assertEquals("running", state(port, "/v1/fsm/instances/r1").get("current_state").asText());
            assertEquals(0, state(port, "/v1/handoff/conversations/c1").get("handoff_count").asInt());
            assertEquals(404, send(port, "GET", "/v1/fsm/instances/r2", null, null).statusCode());
            assertEquals(503, send(port, "GET", "/ready", null, null).statusCode());
            assertEquals(200, send(port, "GET", "/health", null, null).statusCode(), "the process stays live");
            // ... and it was said once, without a stack trace per request
            String out = server.output();
            assertEquals(1, count(out, "refusing every change (503 storage_unavailable)"), out);
            assertFalse(out.contains("\tat "), "a stack trace in the log:\n" + out);

            // When it is stopped while the disk is still full, it exits 0
            server.process().destroy();
            assertEquals(0, server.waitFor(Duration.ofSeconds(90)), server.output());
        }
        // Then, once space returns, a start finds every acknowledged change and answer
        disk.free();
        try (ServeProcess server = ServeProcess.launch(data, log, Map.of(), jvm).awaitServing(Duration.ofSeconds(120))) {
            int port = server.port();
            assertEquals("running", state(port, "/v1/fsm/instances/r1").get("current_state").asText());
            HttpResponse<String> replayed = send(port, "POST", "/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}", "k0");
            assertEquals(moved, replayed.body());
            assertEquals("true", replayed.headers().firstValue("idempotent-replayed").orElse(""));
            // ... and the keys refused while the disk was full run now (they were released, not left in progress)
            assertEquals("revising", Json.parse(send(port, "POST", "/v1/fsm/instances/r1/actions",
                    "{\"action\": \"review\", \"payload\": {\"quality\": 0.5}}", "k1").body()).get("to").asText());
            assertEquals(200, send(port, "POST", "/v1/handoff/conversations/c1/turns", TURN, "k2").statusCode());
            server.process().destroy();
            server.waitFor(Duration.ofSeconds(90));
        }
        // ... and the log holds every acknowledged decision, whole lines only: it replays
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        Set<String> logged = new HashSet<>();
        archive.files().forEach(f -> {
            assertEquals(List.of(), f.problems(), "a broken line in " + f.path());
            f.entries().forEach(e -> logged.add(e.record().decisionId()));
        });
        Set<String> missing = new HashSet<>(acknowledged);
        missing.removeAll(logged);
        assertEquals(Set.of(), missing, "acknowledged but not in the log");
        CliRunner.Result replay = CliRunner.run("replay", "--quiet", "--rules", TestBundles.RULES.toString(), data.toString());
        assertEquals(0, replay.code(), replay.out() + replay.err());
    }

    private static void assertStorageUnavailable(HttpResponse<String> r) throws Exception {
        assertEquals(503, r.statusCode(), r.body());
        assertEquals("storage_unavailable", Json.parse(r.body()).get("error").asText(), r.body());
    }

    private static com.fasterxml.jackson.databind.JsonNode state(int port, String path) throws Exception {
        HttpResponse<String> r = send(port, "GET", path, null, null);
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body());
    }

    private static String decisionId(HttpResponse<String> r, int status) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return Json.parse(r.body()).get("decision_id").asText();
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
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

    private static HttpResponse<String> send(int port, String method, String path, String body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("idempotency-key", key);
        }
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
