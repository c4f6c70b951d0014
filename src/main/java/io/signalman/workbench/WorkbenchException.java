package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.json.Json;
import java.util.List;

/**
 * A workbench request refused for a reason the page shows as it is: a status, a code, a message,
 * and the located errors (file, line, column) when the reason is in the rules.
 */
final class WorkbenchException extends RuntimeException {

    private final int status;
    private final String code;
    private final transient ObjectNode details;

    WorkbenchException(int status, String code, String message) {
        this(status, code, message, null);
    }

    WorkbenchException(int status, String code, String message, ObjectNode details) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    static WorkbenchException located(int status, String code, String message, List<BundleError> errors) {
        ObjectNode d = Json.object();
        d.set("errors", Checks.errors(errors));
        return new WorkbenchException(status, code, message, d);
    }

    int status() {
        return status;
    }

    ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("error", code);
        n.put("message", getMessage());
        if (details != null) {
            n.set("details", details);
        }
        return n;
    }
}
