package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.Packs;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import io.signalman.json.Json;

/**
 * "Try a message": one input decided by the live rules and by a draft, each with the same
 * explanation {@code ?explain=true} and {@code signalman explain --json} give (why this rule, why
 * not each other). Nothing is logged and no state changes: a stateful pack decides from the
 * {@code state_before} the form sends, as replay does.
 */
final class TryMessage {

    private TryMessage() {
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
        ObjectNode out = Json.object();
        out.put("pack", packName);
        out.set("live", decide(pack, live, input, state));
        out.set("draft", draft == null ? Json.MAPPER.nullNode() : decide(pack, draft, input, state));
        return out;
    }

    private static <I, D> JsonNode decide(DecisionPack<I, D> pack, RuleBundle bundle, JsonNode input, JsonNode state) {
        try {
            I in = state == null || state.isNull() ? pack.parseInput(input) : pack.parseRecord(input, state);
            Decision<D> d = pack.decide(bundle, in, true);
            return d.toJson(pack.outcomeJson(d.outcome()));
        } catch (InputException e) {
            throw new WorkbenchException(400, "invalid_input", (e.field().isEmpty() ? "" : e.field() + ": ") + e.getMessage());
        }
    }
}
