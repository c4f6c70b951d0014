package io.signalman.engine;

import java.util.Objects;

/**
 * One problem with a rule bundle, located in the analyst's own terms: a path relative to
 * {@code rules/}, a 1-based line and column (0 when the tool that found it gave none).
 */
public record BundleError(String file, int line, int column, String message) {

    public BundleError {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
    }

    /** The {@code file:line:column: message} form that editors and CI logs link to. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
