package io.signalman.datadir;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * What one request made durable, so that its idempotency answer can name it: a state change
 * ({@code {"store", "id", "version"}}) and a decision-log record ({@code {"log": file, "end": byte
 * offset}}). A start keeps a stored answer only when everything it names is there, so an answer
 * never outlives the change it answers, whatever a crash or a power cut kept of each file.
 *
 * <p>NOTE(design): held per thread, because the change is made deep inside a pack's service
 * (under its key's lock) while the answer is written by the generic idempotency layer around the
 * whole request, on the same worker thread; threading a receipt through every service's return
 * type would change every pack for what only durability needs.
 */
public final class Receipts {

    private static final ThreadLocal<List<ObjectNode>> CURRENT = new ThreadLocal<>();

    private Receipts() {
    }

    /** Starts collecting this thread's receipts (the idempotency layer, before a request's work). */
    public static void begin() {
        CURRENT.set(new ArrayList<>());
    }

    /** Stops collecting and returns what was made durable since {@link #begin()}. */
    public static List<ObjectNode> end() {
        List<ObjectNode> r = CURRENT.get();
        CURRENT.remove();
        return r == null ? List.of() : r;
    }

    /** A state change made durable by this thread's request. */
    public static void state(String store, String id, long version) {
        List<ObjectNode> r = CURRENT.get();
        if (r != null) {
            r.add(Json.object().put("store", store).put("id", id).put("version", version));
        }
    }

    /** A decision-log record written for this thread's request: it ends at byte {@code end} of {@code file}. */
    public static void log(String file, long end) {
        List<ObjectNode> r = CURRENT.get();
        if (r != null && file != null) {
            r.add(Json.object().put("log", file).put("end", end));
        }
    }
}
