package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issues 26.5 and 26.6 through real {@code serve} processes: a second server on a data directory
 * is refused naming the pid that owns it; SIGTERM exits 0 as the README says; replaying the data
 * directory replays its decision log; a deleted snapshot is named and refused at start and by
 * {@code signalman data verify}, until the loss is accepted with {@code --accept-data-loss}; a
 * server whose port is in use exits 1 with one clear line (no stack trace, no process left alive).
 * Two full starts: the refusals come before any rule is compiled.
 */
class DataDirProcessTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String MESSAGE = TestBundles.TRADE_EXECUTED;

    @TempDir
    Path dir;

    @Test
    void oneOwnerPerDataDirectoryAWholeDirectoryOrARefusalNamingWhatIsMissingAndOnePortPerServer() throws Exception {
        Path data = dir.resolve("data");
        try (ServeProcess owner = ServeProcess.start(data, Map.of())) {
            post(owner.port(), "/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}");
            post(owner.port(), "/v1/broker/route", MESSAGE);

            // A second server on the same data directory is refused at once, naming the owner
            try (ServeProcess second = ServeProcess.launch(data.resolve("second"), Map.of(), "--data", data.toString())) {
                assertEquals(1, second.waitFor(Duration.ofSeconds(60)), second.output());
                assertTrue(second.output().contains("is in use by another Signalman process (pid " + owner.process().pid() + ")"),
                        second.output());
            }
            // SIGTERM stops it with status 0
            owner.process().destroy();
            assertEquals(0, owner.waitFor(Duration.ofSeconds(60)), owner.output());
        }

        // Replaying the data directory replays its decision log
        CliRunner.Result replay = CliRunner.run("replay", "--quiet", "--rules", TestBundles.RULES.toString(), data.toString());
        assertEquals(0, replay.code(), replay.out() + replay.err());
        assertTrue(replay.err().contains("is a data directory: replaying its decision log"), replay.err());
        assertTrue(replay.out().contains("0 unreadable records"), replay.out());

        // ... and --accept will not rewrite it (the manifest would refuse the next start)
        CliRunner.Result accept = CliRunner.run("replay", "--accept", data.toString());
        assertEquals(2, accept.code(), accept.err());
        assertTrue(accept.err().contains("is a data directory"), accept.err());

        // A deleted snapshot is named by verify and refused at start
        Path snapshot;
        try (Stream<Path> s = Files.list(data.resolve("state"))) {
            snapshot = s.filter(p -> p.getFileName().toString().startsWith("snapshot-")).findFirst().orElseThrow();
        }
        Files.delete(snapshot);
        CliRunner.Result verify = CliRunner.run("data", "verify", "--data", data.toString(), "--rules",
                TestBundles.RULES.toString());
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("problem: state/" + snapshot.getFileName() + " is missing"), verify.out());
        try (ServeProcess refused = ServeProcess.launch(data, Map.of())) {
            assertEquals(1, refused.waitFor(Duration.ofSeconds(60)), refused.output());
            assertTrue(refused.output().contains("state/" + snapshot.getFileName() + " is missing"), refused.output());
            assertTrue(refused.output().contains("--accept-data-loss"), refused.output());
        }
        // ... until the loss is accepted: here by a start whose port is taken, which also shows that a
        // server that cannot listen exits 1 with one line, no stack trace, and leaves the directory whole
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             ServeProcess clash = ServeProcess.launch(data, Map.of(), "--accept-data-loss", "--port",
                     String.valueOf(taken.getLocalPort()))) {
            assertEquals(1, clash.waitFor(Duration.ofSeconds(120)), clash.output());
            assertTrue(clash.output().contains("accepting the loss"), clash.output());
            assertTrue(clash.output().contains("signalman: cannot start: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + ": the address is already in use"), clash.output());
            assertFalse(clash.output().contains("\tat "), "a stack trace:\n" + clash.output());
        }
        CliRunner.Result whole = CliRunner.run("data", "verify", "--data", data.toString(), "--rules",
                TestBundles.RULES.toString());
        assertEquals(0, whole.code(), whole.out() + whole.err());
    }

    private static void post(int port, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() < 300, r.body());
    }
}
