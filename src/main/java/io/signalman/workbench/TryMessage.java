package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.explain.RuleCheck;
import io.signalman.json.InputException;
import io.signalman.json.Json;

/**
 * "Try a message": one input decided by the live rules and by a draft, each with the same
 * explanation {@code ?explain=true} and {@code signalman explain --json} give (why this rule, why
 * not each other). Nothing is logged and no state changes: a stateful pack decides from the
 * {@code state_before} the form sends, as replay does. With {@code why_not}, each side also says
 * why that one rule did or did not decide, constraint by constraint.
 */
final class TryMessage {

    private TryMessage() {
    }

    /** Fields that tell a decision apart from another made of the same input: not differences of the answer. */
    private static final java.util.Set<String> OWN = java.util.Set.of("decision_id", "at", "rules_revision", "revision", "elapsed_us",
            "elapsed_ms", "explain", "rules_fired", "trace", "values_read");

    /**
     * What differs between a logged decision and today's answer to the same input: each answer
     * field recorded, with the recorded value and today's (none: the same answer).
     */
    static com.fasterxml.jackson.databind.node.ArrayNode differences(JsonNode recorded, JsonNode today) {
        com.fasterxml.jackson.databind.node.ArrayNode out = Json.array();
        recorded.fieldNames().forEachRemaining(f -> {
            if (!OWN.contains(f) && !recorded.get(f).equals(today.get(f))) {
                ObjectNode d = out.addObject().put("field", f);
                d.set("recorded", recorded.get(f));
                d.set("today", today.get(f) == null ? Json.MAPPER.nullNode() : today.get(f));
            }
        });
        return out;
    }

    static ObjectNode run(JsonNode body, RuleBundle live, RuleBundle draft) {
        String packName = body.path("pack").asText("");
        DecisionPack<?, ?> pack = Packs.named(packName).orElseThrow(() -> new WorkbenchException(400, "unknown_pack",
                "no pack \"" + packName + "\"; packs: " + Packs.all().stream().map(DecisionPack::name).toList()));
        JsonNode input = body.get("input");
        if (input == null || !input.isObject()) {
            throw new WorkbenchException(400, "invalid_input", "\"input\" must be the JSON object the pack's endpoint takes");
        }
        JsonNode state = body.get("state_before");
        JsonNode whyNot = body.get("why_not");
        if (whyNot != null && !whyNot.isNull() && (!whyNot.isTextual() || whyNot.asText().length() > 500)) {
            throw new WorkbenchException(400, "invalid_input", "\"why_not\" is the name of one rule of the pack");
        }
        String rule = whyNot == null || whyNot.isNull() || whyNot.asText().isBlank() ? null : whyNot.asText();
        ObjectNode out = Json.object();
        out.put("pack", packName);
        out.set("live", decide(pack, live, input, state, rule));
        out.set("draft", draft == null ? Json.MAPPER.nullNode() : decide(pack, draft, input, state, rule));
        return out;
    }

    private static <I, D> JsonNode decide(DecisionPack<I, D> pack, RuleBundle bundle, JsonNode input, JsonNode state, String whyNot) {
        try {
            I in = state == null || state.isNull() ? pack.parseInput(input) : pack.parseRecord(input, state);
            Decision<D> d = pack.decide(bundle, in, true);
            ObjectNode out = d.toJson(pack.outcomeJson(d.outcome()));
            withValuesRead(out, d);
            if (whyNot != null) {
                ObjectNode answer = d.whyNotJson(whyNot);
                out.set("why_not", answer != null ? answer : Json.object().put("rule", whyNot)
                        .put("why", "these rules have no rule named \"" + whyNot + "\""));
            }
            return out;
        } catch (InputException e) {
            throw new WorkbenchException(400, "invalid_input", (e.field().isEmpty() ? "" : e.field() + ": ") + e.getMessage());
        }
    }

    /**
     * A rule that matched is explained by more than its {@code @reason}: each of its constraints
     * with the values it read for this input ({@code "constraints"}, as {@code why_not} gives them),
     * so an analyst sees why it held, not only that it did.
     */
    private static void withValuesRead(ObjectNode out, Decision<?> d) {
        if (d.evaluation().explainer() == null) {
            return;
        }
        for (JsonNode line : out.withArray("explain")) {
            if (!"not-matched".equals(line.path("status").asText())) {
                RuleCheck check = d.evaluation().explainer().check(line.path("rule").asText());
                if (check != null) {
                    ((ObjectNode) line).set("constraints", check.toJson().get("constraints"));
                }
            }
        }
    }
}
