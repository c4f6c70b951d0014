package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.json.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 17.8's bench row: an endpoint offered twice its saturation rate, open loop, from up to
 * {@link #CONNECTIONS} connections (so the server, not the client's pool, decides what waits).
 * The server sheds what it cannot serve in time (503 {@code overloaded}); what counts is the
 * latency of the requests it accepted, from their intended send time, next to the half-rate p99.
 */
final class OverloadPhase {

    static final int CONNECTIONS = 1000;

    private OverloadPhase() {
    }

    /** {@code {"rate", "accepted", "shed", "accepted_latency_ms": {p50, p99, p99.9, count}}}. */
    static ObjectNode run(Vertx vertx, int port, Target t, double rate, int seconds) throws InterruptedException {
        HttpClientAgent client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(CONNECTIONS));
        int leadIn = (int) rate;
        int total = leadIn + (int) (rate * seconds);
        long[] lat = new long[total];
        int[] status = new int[total];
        long start = System.nanoTime();
        CountDownLatch done = new CountDownLatch(total);
        AtomicInteger sent = new AtomicInteger();
        long timer = vertx.setPeriodic(1, id -> {
            long due = (long) ((System.nanoTime() - start) / 1e9 * rate);
            while (sent.get() < Math.min(due, total)) {
                int i = sent.getAndIncrement();
                long intended = start + (long) (i / rate * 1e9);
                LoadTargets.send(client, port, t).onComplete(ar -> {
                    lat[i] = System.nanoTime() - intended;
                    status[i] = ar.failed() ? -1 : ar.result();
                    done.countDown();
                });
            }
        });
        boolean finished = done.await(seconds + 60L, TimeUnit.SECONDS);
        vertx.cancelTimer(timer);
        client.close().await();
        if (!finished) {
            throw new IllegalStateException(t.name() + ": " + done.getCount() + " overload requests unanswered after 60 s");
        }
        long[] accepted = new long[total - leadIn];
        int n = 0;
        int shed = 0;
        int failed = 0;
        for (int i = leadIn; i < total; i++) {
            if (status[i] == 200) {
                accepted[n++] = lat[i];
            } else if (status[i] == 503) {
                shed++;
            } else {
                failed++;
            }
        }
        if (failed > 0) {
            throw new IllegalStateException(t.name() + ": " + failed + " overload requests failed other than 503");
        }
        long[] s = Arrays.copyOf(accepted, n);
        Arrays.sort(s);
        ObjectNode out = Json.object().put("rate", rate).put("accepted", n).put("shed", shed);
        ObjectNode l = out.putObject("accepted_latency_ms");
        for (double p : new double[] {50, 99, 99.9}) {
            long v = n == 0 ? 0 : s[Math.min(n - 1, (int) Math.ceil(p / 100 * n) - 1)];
            l.put(p == 50 ? "p50" : p == 99 ? "p99" : "p99.9", v / 1e6);
        }
        l.put("count", n);
        return out;
    }
}
