package io.signalman.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.signalman.json.Unreadable;
import java.util.List;
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

    /** Where {@code file} could not be read, as its reader said. */
    public static BundleError of(String file, Unreadable e) {
        return new BundleError(file, e.line(), e.column(), e.getMessage());
    }

    /** The {@code file:line:column: message} form that editors and CI logs link to. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }

    /** {@code [{"file", "line", "column", "message"}]}: how the API and the workbench show errors and warnings. */
    public static ArrayNode toJson(List<BundleError> errors) {
        ArrayNode a = Json.array();
        for (BundleError e : errors) {
            ObjectNode n = a.addObject();
            n.put("file", e.file());
            n.put("line", e.line());
            n.put("column", e.column());
            n.put("message", e.message());
        }
        return a;
    }
}
