package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shutdown and durability of the real process: {@code signalman serve} in its own
 * JVM, stopped with SIGTERM ({@link Process#destroy()}) or killed with SIGKILL
 * ({@link Process#destroyForcibly()}) while it is busy. Each test is bounded: a few hundred
 * requests, and waits of at most a minute that end as soon as the condition holds.
 */
class ServeProcessTest {

    private static final String ROUTE = "/v1/broker/route";
    private static final String MESSAGE = TestBundles.TRADE_EXECUTED;

    @TempDir
    Path data;

    @Test
    void sigtermStopsAcceptingFinishesTheRequestInFlightFlushesTheLogAndExits() throws Exception {
        String token = "tok-" + UUID.randomUUID();
        try (ServeProcess server = ServeProcess.start(data, Map.of(), "--admin-token", token, "--admin-port", "0")) {
            // Given a server that has answered some decisions
            Set<String> answered = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 50; i++) {
                answered.add(decisionId(post(server.port(), ROUTE, MESSAGE)));
            }
            // ... and a request in flight: its headers are read (the server said 100 Continue), its body not yet sent
            try (Socket inFlight = new Socket("127.0.0.1", server.port())) {
                inFlight.setSoTimeout(60_000);
                byte[] body = MESSAGE.getBytes(StandardCharsets.UTF_8);
                OutputStream out = inFlight.getOutputStream();
                out.write(("POST " + ROUTE + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Expect: 100-continue\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = inFlight.getInputStream();
                assertTrue(ChildHttp.readHead(in).startsWith("HTTP/1.1 100"), "the server has taken the request");

                // When it gets SIGTERM
                server.process().destroy();

                // Then it stops accepting new connections while it is still running (finishing our request)
                Await.until(Duration.ofSeconds(30), "new connections to be refused", () -> refuses(server.port()));
                assertTrue(server.process().isAlive(), "the process waits for the request in flight");

                // ... and the request in flight completes with a decision
                out.write(body);
                out.flush();
                String head = ChildHttp.readHead(in);
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                String response = ChildHttp.readBody(in, head);
                answered.add(decisionId(response));
            }
            // ... and the process exits 0: a stop asked for is not a failure (make run would say "Error 143")
            int code = server.waitFor(Duration.ofSeconds(60));
            assertEquals(0, code, "exit code " + code + "\n" + server.output());
            assertTrue(server.output().contains("stopped; "), server.output());

            // ... every decision it answered is in the log, which reads back whole: no torn line after a clean stop
            Archive archive = Archive.read(List.of(data.resolve("decisions")));
            assertEquals(List.of(), problems(archive));
            Set<String> logged = new HashSet<>();
            archive.files().forEach(f -> f.entries().forEach(e -> logged.add(e.record().decisionId())));
            assertEquals(51, answered.size());
            assertTrue(logged.containsAll(answered), "answered but not logged: " + minus(answered, logged));
            assertFalse(server.output().contains(token), "the admin token is in the logs:\n" + server.output());
        }
    }

    @Test
    void theAdminTokenNeverAppearsInTheLogsWhateverTheRequests() throws Exception {
        String token = "tok-" + UUID.randomUUID();
        try (ServeProcess server = ServeProcess.start(data, Map.of("SIGNALMAN_ADMIN_TOKEN", token), "--admin-port", "0")) {
            // Given requests to the admin listener without a token, with a wrong one close to it, and with it
            assertEquals(401, send(server.adminPort(), "POST", "/v1/rules/reload", "", null).statusCode());
            assertEquals(403, send(server.adminPort(), "POST", "/v1/rules/reload", "", token + "x").statusCode());
            assertEquals(403, send(server.adminPort(), "PUT", "/v1/fsm/instances/a", "{}", token.substring(1)).statusCode());
            assertEquals(200, send(server.adminPort(), "POST", "/v1/rules/reload", "", token).statusCode());
            // ... and the same on the public port, which does not serve them
            assertEquals(404, send(server.port(), "POST", "/v1/rules/reload", "", token).statusCode());

            server.process().destroy();
            server.waitFor(Duration.ofSeconds(60));

            // Then neither the startup lines (which describe the configuration) nor any later line names it
            assertTrue(server.output().contains("admin-token=set"), server.output());
            assertFalse(server.output().contains(token), "the admin token is in the logs:\n" + server.output());
            assertFalse(server.output().contains(token.substring(1)), server.output());
        }
    }

    @Test
    void anEmptyAdminTokenRefusesToStartSayingWhy() throws Exception {
        // Given SIGNALMAN_ADMIN_TOKEN set to nothing, as a template that forgot to fill it in leaves it
        try (ServeProcess server = ServeProcess.launch(data, Map.of("SIGNALMAN_ADMIN_TOKEN", ""))) {
            // Then the process exits at once, saying why, without serving
            assertEquals(2, server.waitFor(Duration.ofSeconds(60)), server.output());
            assertTrue(server.output().contains("the admin token is empty"), server.output());
            assertFalse(server.output().contains("signalman serving"), server.output());
        }
        // ... and the same for --admin-token ""
        CliRunner.Result flag = CliRunner.run("serve", "--port", "0", "--data", data.toString(), "--admin-token", "");
        assertEquals(2, flag.code());
        assertTrue(flag.err().contains("the admin token is empty"), flag.err());
    }

    @Test
    void afterKillMinus9MidLoadTheLogStillParsesAndReplays() throws Exception {
        Path decisions = data.resolve("decisions");
        try (ServeProcess server = ServeProcess.start(data, Map.of())) {
            // Given a server under load from four clients
            AtomicInteger ok = new AtomicInteger();
            Load load = new Load(4);
            String batch = "[" + String.join(",", java.util.Collections.nCopies(10, MESSAGE)) + "]";
            for (int c = 0; c < 4; c++) {
                load.add(() -> {
                    for (int i = 0; i < 100 && !load.stopped(); i++) {
                        try {
                            if (post(server.port(), ROUTE + ":batch", batch) != null) {
                                ok.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            return; // the server is gone
                        }
                    }
                });
            }
            // When it is killed without warning mid-load
            load.killMidLoad(server, Duration.ofSeconds(60), "some load to be decided", () -> ok.get() >= 30);
        }
        // Then every line but possibly a torn last one parses
        Archive archive = Archive.read(List.of(decisions));
        assertTrue(archive.records() > 0);
        archive.files().forEach(f -> assertTrue(f.problems().size() == (f.tornTail() ? 1 : 0), f.problems().toString()));

        // ... and even with a torn last line (forced here: a kill lands between two writes only by chance)
        // replay reads it all, reports the torn line and passes: nothing changed, nothing broke.
        try (Stream<Path> files = Files.list(decisions)) {
            Path last = files.sorted().reduce((a, b) -> b).orElseThrow();
            Files.writeString(last, "{\"decision_id\":\"01TORN\",\"at\":\"2026-", StandardOpenOption.APPEND);
        }
        CliRunner.Result replay = CliRunner.run("replay", "--rules", TestBundles.RULES.toString(), decisions.toString());
        assertEquals(0, replay.code(), replay.out() + replay.err());
        assertTrue((replay.out() + replay.err()).contains("torn last line skipped"), replay.out() + replay.err());
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static List<String> problems(Archive a) {
        return a.files().stream().flatMap(f -> f.problems().stream()).toList();
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.removeAll(b);
        return out;
    }

    private static boolean refuses(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String decisionId(String response) throws Exception {
        return Json.parse(response).get("decision_id").asText();
    }

    /** POSTs JSON; the body of a 200, else an assertion error. Transport failures are runtime exceptions. */
    private static String post(int port, String path, String body) {
        HttpResponse<String> r = send(port, "POST", path, body, null);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static HttpResponse<String> send(int port, String method, String path, String body, String token) {
        HttpRequest.Builder b = ChildHttp.request(port, method, path, body, null);
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return ChildHttp.send(b, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
