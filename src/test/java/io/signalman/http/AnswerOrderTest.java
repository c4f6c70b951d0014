package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.signalman.Await;
import io.signalman.app.Server;
import io.signalman.datadir.HoldingDisk;
import java.net.http.HttpResponse;
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
 * written or a worker waits for the held record.)
 */
class AnswerOrderTest {

    @TempDir
    Path data;

    @Test
    void anAnswerIsWrittenOnlyAfterTheChangeItAnswers() throws Exception {
        // Decision-log writes can be held; the writes to idempotency answers are counted
        HoldingDisk disk = new HoldingDisk("decisions-", "answers-");
        Server server = Server.start(ServerConfig.defaults().withPort(0).withData(data), disk);
        try {
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
        } finally {
            disk.release();
            server.close();
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
