package io.signalman.engine.explain;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;

/**
 * A rule's conditions evaluated against one decision's facts.
 *
 * @param holds  every condition held for some combination of facts
 * @param failed the first constraint that did not hold, on the path that got furthest; null when
 *               {@code holds}
 * @param checks every constraint on that path, in the rule's order, those after the failure too
 *               (a pattern never reached has result null)
 */
public record RuleCheck(boolean holds, Check failed, List<Check> checks) {

    /** Why the rule did not match, in one sentence, or that every condition holds. */
    public String sentence() {
        return holds ? "every condition holds for this input" : failed.sentence();
    }

    /** {@code {"holds", "failed": Check|null, "constraints": [Check...]}}. */
    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("holds", holds);
        if (failed == null) {
            n.putNull("failed");
        } else {
            n.set("failed", failed.toJson());
        }
        ArrayNode all = n.putArray("constraints");
        checks.forEach(c -> all.add(c.toJson()));
        return n;
    }
}
