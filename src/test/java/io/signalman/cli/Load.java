package io.signalman.cli;

import io.signalman.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Clients loading a server in a JVM of its own ({@link ServeProcess}), each on a thread of its own,
 * until the load is stopped or the server is gone; then the process is killed without warning
 * mid-load and each client is waited for (one that failed fails the test).
 */
final class Load {

    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    private final List<Future<?>> clients = new ArrayList<>();

    /** A load of up to {@code clients} clients. */
    Load(int clients) {
        pool = Executors.newFixedThreadPool(clients);
    }

    /** Starts a client: it runs until {@link #stopped()} or the server is gone. */
    void add(Runnable client) {
        clients.add(pool.submit(client));
    }

    boolean stopped() {
        return stop.get();
    }

    /**
     * Waits (up to {@code timeout}) until {@code enough} holds, and kills the server without warning
     * mid-load; then stops the load and waits for every client.
     */
    void killMidLoad(ServeProcess server, Duration timeout, String what, BooleanSupplier enough) throws Exception {
        try {
            Await.until(timeout, what, enough);
            server.kill();
        } finally {
            stop.set(true);
            pool.shutdown();
        }
        for (Future<?> f : clients) {
            f.get();
        }
    }
}
