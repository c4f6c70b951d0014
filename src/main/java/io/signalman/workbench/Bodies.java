package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Set;

/** Checks of a request body's fields, for the bodies whose every field is known: a field nobody reads is refused, not ignored. */
final class Bodies {

    /** A note is a sentence or a paragraph, not a file. */
    static final int MAX_NOTE = 2000;

    private Bodies() {
    }

    /** 400 {@code unknown_field} naming the first field of {@code req} not among {@code known}. */
    static void only(JsonNode req, String... known) {
        Set<String> allowed = Set.of(known);
        for (Iterator<String> it = req.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new WorkbenchException(400, "unknown_field", "unknown field \"" + (f.length() > 40 ? f.substring(0, 40) + "..." : f)
                        + "\": send " + String.join(", ", known));
            }
        }
        for (String f : known) {
            JsonNode v = req.get(f);
            if (v != null && !v.isNull() && !v.isTextual()) {
                throw new WorkbenchException(400, "invalid_input", "\"" + f + "\" must be a string");
            }
        }
    }

    /** The body's {@code note}: required, not blank, at most {@link #MAX_NOTE} characters; stripped. */
    static String note(JsonNode req, String what) {
        JsonNode n = req.get("note");
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            throw new WorkbenchException(400, "note_required", what + " needs a note saying why ({\"note\": \"...\"})");
        }
        if (n.asText().length() > MAX_NOTE) {
            throw new WorkbenchException(400, "invalid_input", "a note may have at most " + MAX_NOTE + " characters");
        }
        return n.asText().strip();
    }
}
