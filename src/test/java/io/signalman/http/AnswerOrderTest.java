package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.app.Server;
import io.signalman.datadir.HoldingDisk;
import io.signalman.json.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order of the two writes, seen at the disk: while the decision-log record of a
 * keyed FSM action is held on its way to the file, nothing is written to the idempotency answers
 * and the client is not answered; once the record is written, the answer is. (An answer written
 * before its change fails here whatever the timing: the test waits until either an answer is
 * written or a worker waits for the held record.) A stateless decision is answered the same way,
 * once its record is written, without a worker waiting for it.
 */
class AnswerOrderTest {

    @TempDir
    Path data;

    @Test
    void anAnswerIsWrittenOnlyAfterTheChangeItAnswers() throws Exception {
        // Decision-log writes can be held; the writes to idempotency answers are counted
        HoldingDisk disk = new HoldingDisk("decisions-", "answers-");
        onServer(disk, server -> {
            int port = server.port();
            assertEquals(201, HttpCalls.post(port, "/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}", null).statusCode());
            // Given the decision log's writes held
            disk.hold.set(true);
            int answersBefore = disk.written.get();

            // When a keyed action is sent
            CompletableFuture<HttpResponse<String>> action = CompletableFuture.supplyAsync(() -> HttpCalls.post(port,
                    "/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}", "k1"));
            Await.until(Duration.ofSeconds(30), "an answer written, or a worker waiting for its held record",
                    () -> disk.written.get() > answersBefore || waitingForTheLog());

            // Then no answer was written while its change was not, and the client waits
            assertEquals(answersBefore, disk.written.get(), "an answer was written before the change it answers");
            assertFalse(action.isDone(), "the client was answered before its change was written");

            // ... and once the change is written, the answer is, and the client gets it
            disk.release();
            assertEquals(200, action.get().statusCode(), action.get().body());
            assertEquals(answersBefore + 1, disk.written.get());
        });
    }

    /**
     * A stateless decision is answered when its record is written, and no worker thread is held
     * waiting for that meanwhile: the log's writer hands the answer to the event loop. (Sent
     * before the write, the answer fails the first assertion; a worker waiting in the log fails
     * the second: then four clients waiting on a slow disk would hold every deciding thread.)
     */
    @Test
    void aStatelessDecisionIsAnsweredOnlyOnceItsRecordIsWrittenAndNoWorkerWaitsForIt() throws Exception {
        HoldingDisk disk = new HoldingDisk("decisions-", "decisions-");
        onServer(disk, server -> {
            int port = server.port();
            String message = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"high\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}";
            assertEquals(200, HttpCalls.post(port, "/v1/broker/route", message, null).statusCode());
            // Given the decision log's writes held
            disk.hold.set(true);
            int writesBefore = disk.written.get();

            // When a decision is asked for
            CompletableFuture<HttpResponse<String>> decision = CompletableFuture.supplyAsync(() -> HttpCalls.post(port,
                    "/v1/broker/route", message, null));
            Await.until(Duration.ofSeconds(30), "the record's write to be held, or the client answered",
                    () -> disk.holding.get() || decision.isDone());

            // Then the client waits for its record, and no worker thread waits with it
            assertFalse(decision.isDone(), "the client was answered before its record was written");
            assertFalse(waitingForTheLog(), "a worker thread waits for the held record");

            // ... and once the record is written the client gets the decision it names
            disk.release();
            HttpResponse<String> answer = decision.get();
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(disk.written.get() > writesBefore);
            String id = Json.parse(answer.body()).get("decision_id").asText();
            server.decisionLog().sync(server.decisionLog().appended());
            try (var files = Files.list(server.decisionLog().directory())) {
                String written = files.map(AnswerOrderTest::read).reduce("", String::concat);
                assertTrue(written.contains(id), "the answered decision " + id + " is not in the log");
            }
        });
    }

    /** A story on a server of its own whose disk is {@code disk}; the disk lets go of held writes before the server stops. */
    private void onServer(HoldingDisk disk, Story story) throws Exception {
        Server server = Server.start(ServerConfig.defaults().withPort(0).withData(data), disk);
        try {
            story.on(server);
        } finally {
            disk.release();
            server.close();
        }
    }

    @FunctionalInterface
    private interface Story {
        void on(Server server) throws Exception;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean waitingForTheLog() {
        for (var e : Thread.getAllStackTraces().entrySet()) {
            Thread.State s = e.getKey().getState();
            if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
                continue;
            }
            for (StackTraceElement f : e.getValue()) {
                if (f.getMethodName().equals("awaitDurable")) {
                    return true;
                }
            }
        }
        return false;
    }
}
