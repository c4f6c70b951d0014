package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
        return run(body, live, draft, Json::array);
    }

    /** {@code examples}: inputs of the pack known to be valid, to read past one input error to the next. */
    static ObjectNode run(JsonNode body, RuleBundle live, RuleBundle draft, java.util.function.Supplier<ArrayNode> examples) {
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
        inputErrors(pack, input, state, examples);
        out.set("live", decide(pack, live, input, state, rule));
        out.set("draft", draft == null ? Json.MAPPER.nullNode() : decide(pack, draft, input, state, rule));
        return out;
    }

    /** At most this many input errors are listed; each costs one parse of the input. */
    static final int MAX_INPUT_ERRORS = 20;

    /**
     * Every input error at once, not one per attempt: the input is parsed as the pack's endpoint
     * parses it; at each error, the field is given a valid example's value there (or, with none,
     * taken out) and the input parsed again, until it parses, a field fails twice, or
     * {@link #MAX_INPUT_ERRORS}. Answers 400 {@code invalid_input} naming the first, with
     * {@code details.errors} listing each ({@code field}, {@code message}). Nothing when the input is valid.
     */
    static void inputErrors(DecisionPack<?, ?> pack, JsonNode input, JsonNode state, java.util.function.Supplier<ArrayNode> valid) {
        JsonNode probe = input.deepCopy();
        ArrayNode examples = null;
        ArrayNode errors = Json.array();
        java.util.Set<String> seen = new java.util.HashSet<>();
        String first = null;
        for (int i = 0; i < MAX_INPUT_ERRORS; i++) {
            try {
                if (state == null || state.isNull()) {
                    pack.parseInput(probe);
                } else {
                    pack.parseRecord(probe, state);
                }
                break;
            } catch (InputException e) {
                if (!seen.add(e.field())) {
                    break;
                }
                String said = (e.field().isEmpty() ? "" : e.field() + ": ") + e.getMessage();
                first = first == null ? said : first;
                errors.addObject().put("field", e.field()).put("message", e.getMessage());
                examples = examples == null ? valid.get() : examples;
                if (e.field().isEmpty() || !repair(probe, e.field(), examples)) {
                    break;
                }
            }
        }
        if (first != null) {
            ObjectNode details = Json.object().put("field", errors.get(0).path("field").asText());
            details.set("errors", errors);
            throw new WorkbenchException(400, "invalid_input", errors.size() == 1 ? first
                    : first + " (and " + (errors.size() - 1) + " more: each is listed)", details);
        }
    }

    /** Puts an example's value at {@code field} ("a.b" or "a[2].b") in {@code input}, or takes the field out; false when neither can be done. */
    private static boolean repair(JsonNode input, String field, ArrayNode examples) {
        com.fasterxml.jackson.core.JsonPointer at;
        try {
            at = com.fasterxml.jackson.core.JsonPointer.compile("/" + field.replaceAll("\\[(\\d+)]", ".$1").replace("~", "~0")
                    .replace("/", "~1").replace(".", "/"));
        } catch (IllegalArgumentException e) {
            return false;
        }
        JsonNode parent = input.at(at.head());
        String last = at.last().getMatchingProperty();
        JsonNode valid = null;
        for (JsonNode ex : examples) {
            JsonNode v = ex.path("input").isObject() ? ex.path("input").at(at) : ex.at(at);
            if (!v.isMissingNode()) {
                valid = v;
                break;
            }
        }
        if (parent instanceof ObjectNode o) {
            if (valid != null) {
                o.set(last, valid.deepCopy());
                return true;
            }
            return o.remove(last) != null;
        }
        if (parent instanceof ArrayNode a && at.last().mayMatchElement() && at.last().getMatchingIndex() < a.size()) {
            a.remove(at.last().getMatchingIndex());
            return true;
        }
        return false;
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
