package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.time.Instant;
import java.util.Locale;

/**
 * One live trial as it is stored and shared (on disk, or in the cluster's map): which draft runs
 * as the candidate beside which live revision, how (shadow or canary, the percent), its stop
 * limits, and where it is in its life. Immutable: every change is a new trial with the next
 * {@code version}, written only over the version it was made from, so two nodes (or two
 * operators) changing one trial at once cannot lose each other's change. {@code events} is the
 * trial's own history (started, percent raised, stopped, ...), at most {@link #MAX_EVENTS}.
 */
record Trial(String id, String draft, Mode mode, double percent, StopLimits stop, State state, String stopReason,
             String liveRevision, String candidateRevision, String startedAt, String endedAt, Long promotedAs, long version,
             ArrayNode events) {

    static final int MAX_EVENTS = 100;

    /** How the candidate takes part. */
    enum Mode {
        /** Every sampled request is decided by the candidate too, off the request's path; clients get live. */
        SHADOW,
        /** A stable share of traffic is answered by the candidate, and every request is decided by both. */
        CANARY;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where a trial is in its life; only a running trial decides anything. */
    enum State {
        RUNNING, STOPPED, PROMOTED, ABORTED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Promoted and aborted trials are over; a stopped one may still be promoted or aborted. */
        boolean over() {
            return this == PROMOTED || this == ABORTED;
        }
    }

    boolean running() {
        return state == State.RUNNING;
    }

    /** A copy with the next version and one more event. */
    private Trial next(Mode m, double p, StopLimits s, State st, String reason, String ended, Long promoted, String event) {
        ArrayNode ev = events.deepCopy();
        ev.addObject().put("at", Instant.now().toString()).put("event", event);
        while (ev.size() > MAX_EVENTS) {
            ev.remove(0);
        }
        return new Trial(id, draft, m, p, s, st, reason, liveRevision, candidateRevision, startedAt, ended, promoted,
                version + 1, ev);
    }

    Trial changed(Mode m, double p, StopLimits s, String event) {
        return next(m, p, s, state, stopReason, endedAt, promotedAs, event);
    }

    /** Stopped (by a limit, a reload, a restart): every request is decided by the live rules again. */
    Trial stopped(String reason) {
        return next(mode, percent, stop, State.STOPPED, reason, Instant.now().toString(), promotedAs, "stopped: " + reason);
    }

    /** Running again after a stop, from the stopped state only (the caller checks). */
    Trial resumed(String event) {
        return next(mode, percent, stop, State.RUNNING, null, null, promotedAs, event);
    }

    Trial aborted(String reason) {
        return next(mode, percent, stop, State.ABORTED, reason, endedAt == null ? Instant.now().toString() : endedAt,
                promotedAs, "aborted" + (reason == null ? "" : ": " + reason));
    }

    Trial promoted(long activation) {
        return next(mode, percent, stop, State.PROMOTED, stopReason, endedAt == null ? Instant.now().toString() : endedAt,
                activation, "promoted as activation #" + activation);
    }

    ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("id", id);
        n.put("draft", draft);
        n.put("mode", mode.wire());
        n.put("percent", percent);
        n.set("stop", stop.none() ? Json.MAPPER.nullNode() : stop.toJson());
        n.put("state", state.wire());
        n.put("stop_reason", stopReason);
        n.put("live_revision", liveRevision);
        n.put("candidate_revision", candidateRevision);
        n.put("started_at", startedAt);
        n.put("ended_at", endedAt);
        if (promotedAs == null) {
            n.putNull("promoted_as");
        } else {
            n.put("promoted_as", promotedAs);
        }
        n.put("version", version);
        n.set("events", events);
        return n;
    }

    /** Reads what {@link #toJson} wrote (a trial's file, or the cluster's map). */
    static Trial fromJson(JsonNode n) {
        JsonNode stop = n.get("stop");
        return new Trial(n.path("id").asText(), n.path("draft").asText(), Mode.valueOf(n.path("mode").asText().toUpperCase(Locale.ROOT)),
                n.path("percent").asDouble(), stop == null || stop.isNull() ? StopLimits.NONE : StopLimits.fromJson(stop),
                State.valueOf(n.path("state").asText().toUpperCase(Locale.ROOT)), text(n, "stop_reason"),
                text(n, "live_revision"), text(n, "candidate_revision"), text(n, "started_at"), text(n, "ended_at"),
                n.hasNonNull("promoted_as") ? n.get("promoted_as").asLong() : null, n.path("version").asLong(),
                n.path("events").isArray() ? (ArrayNode) n.get("events").deepCopy() : Json.array());
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }
}
