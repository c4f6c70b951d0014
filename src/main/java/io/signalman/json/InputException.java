package io.signalman.json;

/**
 * A client's input is wrong: malformed JSON, a wrong type, a missing or unknown field.
 * {@code field} is the path to it ({@code envelope.priority}, {@code [3].subtype}), or empty for
 * the body as a whole.
 */
public final class InputException extends Exception {

    private final String field;

    public InputException(String field, String message) {
        super(message);
        this.field = field == null ? "" : field;
    }

    public String field() {
        return field;
    }
}
