package io.signalman.json;

/**
 * A client's input is wrong: malformed JSON, a wrong type, a missing or unknown field.
 * {@code field} is the path to it ({@code envelope.priority}, {@code [3].subtype}), or empty for
 * the body as a whole.
 */
public final class InputException extends Exception {

    private final String field;
    private final boolean malformed;

    public InputException(String field, String message) {
        this(field, message, false);
    }

    public InputException(String field, String message, boolean malformed) {
        super(message);
        this.field = field == null ? "" : field;
        this.malformed = malformed;
    }

    /** True when the text is not JSON at all (as opposed to JSON of the wrong shape). */
    public boolean malformed() {
        return malformed;
    }

    /** The same problem, one level down: {@code [3]} + {@code envelope.priority}. */
    public InputException within(String prefix) {
        String path = field.isEmpty() ? prefix : field.startsWith("[") ? prefix + field : prefix + "." + field;
        return new InputException(path, getMessage(), malformed);
    }

    public String field() {
        return field;
    }
}
