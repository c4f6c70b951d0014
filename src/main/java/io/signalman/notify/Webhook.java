package io.signalman.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.signalman.people.AuditLog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --notify-webhook URL}: a small JSON event POSTed for each review request, approval,
 * rejection, activation (rollback, revert, quarantine, trial promotion included) and trial
 * start, change or abort, so that a team can wire chat or email. Events come from the audit log
 * (what is recorded is what is told), on this node's entries only, so a cluster tells each once.
 * Sending never delays the action: events queue (at most {@link #QUEUE}; past that one is dropped
 * and counted) for one sending thread, and a refused or failed post is tried again
 * {@link #ATTEMPTS} times in all, waiting 1, 2, 4, 8 s between tries, then given up and logged.
 */
public final class Webhook implements AutoCloseable {

    static final Set<String> ACTIONS = Set.of("review_requested", "draft_approved", "draft_rejected", "activated", "rolled_back",
            "reverted", "quarantined", "trial_promoted", "trial_started", "trial_changed", "trial_stopped", "trial_aborted");
    static final int QUEUE = 1000;
    static final int ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(Webhook.class);

    private final URI url;
    private final String node;
    private final long firstRetryMillis;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "signalman-webhook");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /** {@code node}: this node's cluster address (only its entries are told), or null alone. */
    public Webhook(URI url, String node) {
        this(url, node, 1_000);
    }

    Webhook(URI url, String node, long firstRetryMillis) {
        this.url = check(url);
        this.node = node;
        this.firstRetryMillis = firstRetryMillis;
    }

    /** The URL of {@code --notify-webhook}: http or https, with a host. */
    public static URI check(URI url) {
        if (url == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("--notify-webhook takes an http:// or https:// URL with a host, not " + url);
        }
        return url;
    }

    /** Tells the webhook of {@code log}'s entries from now on. */
    public Webhook follow(AuditLog log) {
        log.onEntry(this::offer);
        return this;
    }

    void offer(JsonNode entry) {
        String action = entry.path("action").asText();
        if (!ACTIONS.contains(action) || node != null && entry.has("node") && !node.equals(entry.path("node").asText())) {
            return;
        }
        if (pending.incrementAndGet() > QUEUE) {
            pending.decrementAndGet();
            dropped.incrementAndGet();
            LOG.warn("webhook {}: {} events wait already; the {} event (audit #{}) is dropped", url, QUEUE, action,
                    entry.path("seq").asLong());
            return;
        }
        String body = Json.write(event(entry));
        sender.execute(() -> send(body, 1));
    }

    /** What a team's chat needs: what happened, who, when, about what, and the audit entry to read more. */
    static ObjectNode event(JsonNode e) {
        ObjectNode n = Json.object().put("event", e.path("action").asText()).put("at", e.path("at").asText())
                .put("user", e.path("user").asText()).put("audit_seq", e.path("seq").asLong());
        for (String f : new String[] {"node", "draft", "trial", "note", "new_revision", "old_revision", "content_hash", "activation",
                                      "emergency"}) {
            if (e.has(f) && !e.get(f).isNull()) {
                n.set(f, e.get(f));
            }
        }
        return n;
    }

    private void send(String body, int attempt) {
        String why;
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() / 100 == 2) {
                sent.incrementAndGet();
                pending.decrementAndGet();
                return;
            }
            why = "answered " + r.statusCode();
        } catch (java.io.IOException e) {
            why = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pending.decrementAndGet();
            return;
        }
        if (attempt < ATTEMPTS) {
            sender.schedule(() -> send(body, attempt + 1), firstRetryMillis << (attempt - 1), TimeUnit.MILLISECONDS);
        } else {
            failed.incrementAndGet();
            pending.decrementAndGet();
            LOG.warn("webhook {}: an event was not taken after {} tries (last: {}); it is given up", url, ATTEMPTS, why);
        }
    }

    public long sent() {
        return sent.get();
    }

    public long failed() {
        return failed.get();
    }

    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }
}
