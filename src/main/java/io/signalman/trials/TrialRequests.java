package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The bodies the trial endpoints take, read strictly (unknown fields, wrong types, values out of
 * range: 400 naming the field), before anything is looked up or changed.
 */
final class TrialRequests {

    /** A workbench draft's id. */
    private static final Pattern DRAFT = Pattern.compile("[0-9a-f]{16}");
    static final int MAX_NOTE = 2000;

    /** {@code POST /v1/trials}. */
    record Start(String draft, Trial.Mode mode, double percent, StopLimits stop) {
    }

    /** {@code PATCH /v1/trials/{id}}: what changes; null fields stay. */
    record Change(Trial.Mode mode, Double percent, StopLimits stop, boolean stopGiven, Trial.State state, String reason) {
    }

    /** {@code POST /v1/trials/{id}/promote}. */
    record Promote(String note, boolean acceptGoldenChanges) {
    }

    private TrialRequests() {
    }

    static Start start(JsonNode body) throws InputException {
        Fields f = Fields.of(body, "", Set.of("draft", "mode", "percent", "stop"));
        String draft = f.text("draft", true, 64);
        if (!DRAFT.matcher(draft).matches()) {
            throw new InputException("draft", "draft must be a workbench draft's id (16 hex digits)");
        }
        Trial.Mode mode = mode(f, true);
        Double percent = f.number("percent", 0, 100);
        if (percent == null && mode == Trial.Mode.CANARY) {
            throw new InputException("percent", "a canary needs percent: the share of traffic (0 to 100) the candidate answers");
        }
        return new Start(draft, mode, percent == null ? 100 : percent, StopLimits.parse(f.get("stop"), "stop"));
    }

    static Change change(JsonNode body) throws InputException {
        Fields f = Fields.of(body, "", Set.of("mode", "percent", "stop", "state", "reason"));
        boolean stopGiven = body != null && body.has("stop");
        String state = f.text("state", false, 20);
        String reason = f.text("reason", false, MAX_NOTE);
        if (state != null) {
            // Stop or resume is a change of its own: a person pausing a trial changes nothing else by it.
            if (f.has("mode") || f.has("percent") || stopGiven) {
                throw new InputException("state", "stop or resume a trial on its own, then change its mode, percent or limits");
            }
            return switch (state) {
                case "stopped" -> new Change(null, null, null, false, Trial.State.STOPPED, reason);
                case "running" -> new Change(null, null, null, false, Trial.State.RUNNING, reason);
                default -> throw new InputException("state", "state must be \"stopped\" (stop the trial for now) or \"running\""
                        + " (resume a stopped one)");
            };
        }
        if (reason != null) {
            throw new InputException("reason", "a reason goes with a change of state (stopped or running)");
        }
        if (!f.has("mode") && !f.has("percent") && !stopGiven) {
            throw new InputException("", "send what changes: percent, stop (null for none), mode, or state (stopped or running)");
        }
        return new Change(mode(f, false), f.number("percent", 0, 100), StopLimits.parse(f.get("stop"), "stop"), stopGiven, null, null);
    }

    static Promote promote(JsonNode body) throws InputException {
        Fields f = Fields.of(body, "", Set.of("note", "accept_golden_changes"));
        String note = f.text("note", true, MAX_NOTE);
        Boolean accept = f.bool("accept_golden_changes");
        return new Promote(note.strip(), accept != null && accept);
    }

    /** {@code POST /v1/trials/{id}/abort}: an optional {@code reason} for the record. */
    static String abort(JsonNode body) throws InputException {
        return Fields.of(body, "", Set.of("reason")).text("reason", false, MAX_NOTE);
    }

    private static Trial.Mode mode(Fields f, boolean required) throws InputException {
        String m = f.text("mode", required, 20);
        if (m == null) {
            return null;
        }
        return switch (m) {
            case "shadow", "canary" -> Trial.Mode.valueOf(m.toUpperCase(Locale.ROOT));
            default -> throw new InputException("mode", "mode must be \"shadow\" or \"canary\"");
        };
    }
}
