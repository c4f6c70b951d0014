package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.signalman.Await;
import io.signalman.app.Server;
import io.signalman.datadir.Disk;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
        OrderDisk disk = new OrderDisk();
        Server server = Server.start(ServerConfig.defaults().withPort(0).withData(data), disk);
        try {
            int port = server.port();
            assertEquals(201, HttpCalls.post(port, "/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}", null).statusCode());
            // Given the decision log's writes held
            disk.hold.set(true);
            int answersBefore = disk.answers.get();

            // When a keyed action is sent
            CompletableFuture<HttpResponse<String>> action = CompletableFuture.supplyAsync(() -> HttpCalls.post(port,
                    "/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}", "k1"));
            Await.until(Duration.ofSeconds(30), "an answer written, or a worker waiting for its held record",
                    () -> disk.answers.get() > answersBefore || waitingForTheLog());

            // Then no answer was written while its change was not, and the client waits
            assertEquals(answersBefore, disk.answers.get(), "an answer was written before the change it answers");
            assertFalse(action.isDone(), "the client was answered before its change was written");

            // ... and once the change is written, the answer is, and the client gets it
            disk.release();
            assertEquals(200, action.get().statusCode(), action.get().body());
            assertEquals(answersBefore + 1, disk.answers.get());
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

    /** Holds writes to decision-log files while {@link #hold} is set; counts writes to answers files. */
    private static final class OrderDisk implements Disk {
        final AtomicBoolean hold = new AtomicBoolean();
        final AtomicInteger answers = new AtomicInteger();
        private final CountDownLatch released = new CountDownLatch(1);

        @Override
        public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
            String name = file.getFileName().toString();
            if (hold.get() && name.startsWith("decisions-")) {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            Disk.REAL.write(file, channel, bytes);
            if (name.startsWith("answers-")) {
                answers.incrementAndGet();
            }
        }

        @Override
        public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
            Disk.REAL.force(file, channel, metadata);
        }

        void release() {
            released.countDown();
        }
    }
}
