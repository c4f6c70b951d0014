package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.decisions.Decisions;
import io.signalman.json.Json;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The live tail: every decision as it is logged, as Server-Sent Events, filtered by pack, by rule
 * (a part of the name of any rule that fired) and by text (a part of the whole record). A slow
 * reader misses events rather than slowing deciders down: an event is dropped while the
 * connection's write queue is full, and the next event says how many were dropped.
 */
final class DecisionTail {

    static final int MAX_TAILS = 16;
    static final long HEARTBEAT_MS = 15_000;

    private final Decisions decisions;
    private final AtomicInteger open = new AtomicInteger();

    DecisionTail(Decisions decisions) {
        this.decisions = decisions;
    }

    /** Event loop: opens the stream; the tap hands each matching record back to this context. */
    void handle(RoutingContext ctx) {
        if (open.incrementAndGet() > MAX_TAILS) {
            open.decrementAndGet();
            Replies.error(ctx, 503, "too_many_tails", "at most " + MAX_TAILS + " live tails may be open at once");
            return;
        }
        String pack = param(ctx, "pack");
        String rule = lower(param(ctx, "rule"));
        String text = lower(param(ctx, "q"));
        HttpServerResponse res = ctx.response();
        res.setChunked(true).putHeader("content-type", "text/event-stream; charset=utf-8")
                .putHeader("cache-control", "no-store").putHeader("x-accel-buffering", "no");
        res.write(": signalman live decisions\n\n");
        Context context = Vertx.currentContext();
        AtomicInteger dropped = new AtomicInteger();
        Consumer<DecisionRecord> tap = r -> {
            if (matches(r, pack, rule, text)) {
                String json = Json.write(r.toJson());
                context.runOnContext(v -> send(res, json, dropped));
            }
        };
        decisions.tap(tap);
        long heartbeat = ctx.vertx().setPeriodic(HEARTBEAT_MS, id -> {
            if (!res.closed()) {
                res.write(": still here\n\n");
            }
        });
        res.closeHandler(v -> {
            decisions.untap(tap);
            ctx.vertx().cancelTimer(heartbeat);
            open.decrementAndGet();
        });
    }

    private static void send(HttpServerResponse res, String json, AtomicInteger dropped) {
        if (res.closed() || res.ended()) {
            return;
        }
        if (res.writeQueueFull()) {
            dropped.incrementAndGet();
            return;
        }
        int missed = dropped.getAndSet(0);
        res.write((missed > 0 ? "event: dropped\ndata: " + missed + "\n\n" : "") + "data: " + json + "\n\n");
    }

    /** Worker thread (the tap): cheap checks first, the whole record's text only when asked. */
    static boolean matches(DecisionRecord r, String pack, String rule, String text) {
        if (pack != null && !pack.equals(r.pack())) {
            return false;
        }
        if (rule != null) {
            boolean any = false;
            for (JsonNode f : r.decision().path("rules_fired")) {
                any |= f.path("rule").asText().toLowerCase(Locale.ROOT).contains(rule);
            }
            if (!any) {
                return false;
            }
        }
        return text == null || Json.write(r.toJson()).toLowerCase(Locale.ROOT).contains(text);
    }

    private static String param(RoutingContext ctx, String name) {
        String v = ctx.queryParams().get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
