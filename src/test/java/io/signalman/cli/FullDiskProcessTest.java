package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.datadir.Verify;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.io.IOException;
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
 * says why while {@code /health} stays live; when space returns service resumes by itself and the
 * refused keys run; a SIGTERM while the disk is full again exits 0 losing nothing acknowledged.
 * Twice: with the whole data directory on a 3 MB tmpfs a filler file fills (skipped where the test
 * cannot mount one; the directory is then verified offline), and with the write-failure seam
 * ({@code -Dsignalman.test.disk-full-while}), which needs no mount (a start then finds every
 * acknowledged change and answer).
 */
class FullDiskProcessTest {

    private static final String MESSAGE = TestBundles.TRADE_EXECUTED;
    private static final String TURN = "{\"agent\": \"triage\", \"response\": \"noted\", \"tool_calls\": 0}";
    private static final String REVIEW = "{\"action\": \"review\", \"payload\": {\"quality\": 0.5}}";

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
                    Files.deleteIfExists(filler);
                }
            }, false);
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
                Files.write(full, new byte[0]);
            }

            @Override
            public void free() throws IOException {
                Files.deleteIfExists(full);
            }
        }, true);
    }

    private void aFullDiskChangesNothingSaysSoOnceAndLosesNothing(Path data, List<String> jvm, Filling disk, boolean restart)
            throws Exception {
        Path log = dir.resolve("serve.log");
        Set<String> acknowledged = new HashSet<>();
        String moved;
        String revised;
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
            assertStorageUnavailable(send(port, "POST", "/v1/fsm/instances/r1/actions", REVIEW, "k1"));
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

            // When space returns, service resumes by itself, and the keys refused meanwhile run (released, not in progress)
            disk.free();
            Await.until(Duration.ofSeconds(30), "/ready to be 200 again", () -> send(port, "GET", "/ready", null, null)
                    .statusCode() == 200);
            revised = send(port, "POST", "/v1/fsm/instances/r1/actions", REVIEW, "k1").body();
            assertEquals("revising", Json.parse(revised).get("to").asText(), revised);
            acknowledged.add(Json.parse(revised).get("decision_id").asText());
            assertEquals(200, send(port, "POST", "/v1/handoff/conversations/c1/turns", TURN, "k2").statusCode());

            // When the disk fills again and the server is stopped while it is full, it exits 0
            disk.fill();
            server.process().destroy();
            assertEquals(0, server.waitFor(Duration.ofSeconds(90)), server.output());
        }
        disk.free();
        // Then nothing acknowledged is lost: the log holds every acknowledged decision, whole lines only
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        Set<String> logged = new HashSet<>();
        archive.files().forEach(f -> {
            assertEquals(List.of(), f.problems(), "a broken line in " + f.path());
            f.entries().forEach(e -> logged.add(e.record().decisionId()));
        });
        Set<String> missing = new HashSet<>(acknowledged);
        missing.removeAll(logged);
        assertEquals(Set.of(), missing, "acknowledged but not in the log");
        if (!restart) {
            Verify.Report verified = Verify.check(data);
            assertTrue(verified.ok(), verified.problems().toString());
            return;
        }
        // ... and a start finds every acknowledged change and answer
        try (ServeProcess server = ServeProcess.launch(data, log, Map.of(), jvm).awaitServing(Duration.ofSeconds(120))) {
            int port = server.port();
            assertEquals("revising", state(port, "/v1/fsm/instances/r1").get("current_state").asText());
            for (String[] answered : new String[][] {{"k0", "{\"action\": \"start\"}", moved}, {"k1", REVIEW, revised}}) {
                HttpResponse<String> replayed = send(port, "POST", "/v1/fsm/instances/r1/actions", answered[1], answered[0]);
                assertEquals(answered[2], replayed.body());
                assertEquals("true", replayed.headers().firstValue("idempotent-replayed").orElse(""));
            }
            assertEquals(1, state(port, "/v1/handoff/conversations/c1").get("handoff_count").asInt());
            server.process().destroy();
            server.waitFor(Duration.ofSeconds(90));
        }
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
        return ChildHttp.send(ChildHttp.request(port, method, path, body, key), HttpResponse.BodyHandlers.ofString());
    }
}
