package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What replay calls a change, for everyone who compares two decisions of one input: replay and
 * {@code --accept} (a recorded or baseline decision against a candidate's), the workbench's impact,
 * and a live trial (the live rules' decision against the candidate's). Two decisions differ when
 * a field of the pack's own outcome differs or another rule decided; their ids, revisions,
 * reasons, the rules that fired and their timing do not count.
 */
public final class Compare {

    private Compare() {
    }

    /**
     * Each differing field as {before, after}, the deciding rule as {@code "rule"}; null when
     * nothing differs (most comparisons: the map is made only for one that does).
     *
     * @param beforeRule the rule that made {@code before}: a text node, JSON null for none, or (Java) null when
     *                   not known (a record without one), which differs from any rule
     * @param afterRule  the rule that made {@code after}, as {@link #rule} gives it
     */
    public static Map<String, JsonNode[]> diff(ObjectNode before, JsonNode beforeRule, ObjectNode after, JsonNode afterRule) {
        Map<String, JsonNode[]> diff = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = after.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode old = before.get(e.getKey());
            if (old == null) {
                old = Json.MAPPER.missingNode();
            }
            if (!Json.same(old, e.getValue())) {
                diff = diff == null ? new LinkedHashMap<>() : diff;
                diff.put(e.getKey(), new JsonNode[] {old, e.getValue()});
            }
        }
        JsonNode oldRule = beforeRule == null ? Json.MAPPER.missingNode() : beforeRule;
        if (!oldRule.equals(afterRule)) {
            diff = diff == null ? new LinkedHashMap<>() : diff;
            diff.put("rule", new JsonNode[] {oldRule, afterRule});
        }
        return diff;
    }

    /** The two decisions' difference, as {@link #diff} says; the outcomes are the pack's {@code outcomeJson}. */
    public static <D> Map<String, JsonNode[]> diff(ObjectNode beforeOutcome, Decision<D> before, ObjectNode afterOutcome,
                                                   Decision<D> after) {
        return diff(beforeOutcome, rule(before), afterOutcome, rule(after));
    }

    /** The rule that decided, as replay compares it: its name, or JSON null when none did. */
    public static JsonNode rule(Decision<?> d) {
        RuleInfo by = d.decidedBy();
        return by == null ? NullNode.getInstance() : TextNode.valueOf(by.name());
    }

    /**
     * The smallest input (shrunk as replay shrinks a violation: fields dropped, text emptied,
     * numbers zeroed, while the same invariant still breaks) that breaks {@code invariant} with
     * {@code bundle}'s rules. Up to a few hundred decisions: call it for violations that are kept.
     */
    public static <I, D> JsonNode smallestFailing(DecisionPack<I, D> pack, RuleBundle bundle, Invariant<I, D> invariant,
                                                  JsonNode input, JsonNode stateBefore) {
        return Shrinker.shrink(pack, bundle, invariant, input, stateBefore);
    }
}
