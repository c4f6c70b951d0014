package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.json.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The overload row of the bench: an endpoint offered twice its saturation rate, open loop, from up to
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
        HttpClientAgent client = HttpLoad.client(vertx, CONNECTIONS);
        int leadIn = (int) rate;
        int total = leadIn + (int) (rate * seconds);
        long[] lat = new long[total];
        long[] carried = new long[total];
        long[] lag = new long[total];
        int[] status = new int[total];
        CountDownLatch done = new CountDownLatch(total);
        long timer = HttpLoad.schedule(vertx, rate, total, (i, intended) -> {
            lag[i] = System.nanoTime() - intended;
            long[] connected = new long[1];
            LoadTargets.send(client, port, t, () -> connected[0] = System.nanoTime()).onComplete(ar -> {
                long now = System.nanoTime();
                lat[i] = now - intended;
                carried[i] = connected[0] == 0 ? lat[i] : now - connected[0];
                status[i] = ar.failed() ? -1 : ar.result();
                done.countDown();
            });
        });
        boolean finished = done.await(seconds + 60L, TimeUnit.SECONDS);
        vertx.cancelTimer(timer);
        client.close().await();
        if (!finished) {
            throw new IllegalStateException(t.name() + ": " + done.getCount() + " overload requests unanswered after 60 s");
        }
        long[] accepted = new long[total - leadIn];
        long[] acceptedCarried = new long[total - leadIn];
        long[] sendLag = Arrays.copyOfRange(lag, leadIn, total);
        int n = 0;
        int shed = 0;
        int failed = 0;
        for (int i = leadIn; i < total; i++) {
            if (status[i] == 200) {
                acceptedCarried[n] = carried[i];
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
        ObjectNode out = Json.object().put("rate", rate).put("accepted", n).put("shed", shed);
        // From the intended send time: what a client of an open-loop schedule sees, the
        // generator's own backlog included (it shares the machine's cores with the server).
        out.set("accepted_latency_ms", percentiles(Arrays.copyOf(accepted, n)));
        // From the moment a connection carried the request: the server's part (its queue, the
        // decision, the answer) without the wait in the generator's timer and connection pool.
        out.set("accepted_latency_on_connection_ms", percentiles(Arrays.copyOf(acceptedCarried, n)));
        // How late the generator issued requests against their schedule: a large figure means
        // the offered rate was not reached on time and the first figure measures the generator.
        out.set("send_lag_ms", percentiles(sendLag));
        return out;
    }

    private static ObjectNode percentiles(long[] s) {
        Arrays.sort(s);
        int n = s.length;
        ObjectNode l = Json.object();
        for (double p : new double[] {50, 99, 99.9}) {
            long v = n == 0 ? 0 : s[Math.min(n - 1, (int) Math.ceil(p / 100 * n) - 1)];
            l.put(p == 50 ? "p50" : p == 99 ? "p99" : "p99.9", v / 1e6);
        }
        l.put("count", n);
        return l;
    }
}
