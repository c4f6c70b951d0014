package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A changed decision said in an analyst's words, from the fields that differ: "move from the heavy
 * to the light model", "keep their model with a lower score", "go to cfo instead of vp-trading".
 * Each phrase comes in the plural ("12 messages move ...") and the singular ("1 message moves
 * ..."); fields no phrase knows are said plainly ("tier: agent instead of plugin").
 */
final class ChangeWords {

    /** How many decisions do something: "messages move ..." and "message moves ...". */
    record Phrase(String many, String one) {
    }

    private ChangeWords() {
    }

    /** What a pack's decisions are called, plural and singular. */
    static String[] noun(String pack) {
        return switch (pack) {
            case "signals" -> new String[] {"signals", "signal"};
            case "fsm" -> new String[] {"actions", "action"};
            case "handoff" -> new String[] {"turns", "turn"};
            default -> new String[] {"messages", "message"};
        };
    }

    static Phrase of(Map<String, JsonNode[]> diff) {
        List<String[]> parts = new ArrayList<>();
        JsonNode[] model = diff.get("model");
        if (model != null) {
            parts.add(model(model[0], model[1]));
        }
        diff.forEach((field, v) -> {
            if (!field.equals("model") && !field.equals("rule")) {
                parts.add(field(field, v[0], v[1]));
            }
        });
        JsonNode[] rule = diff.get("rule");
        if (rule != null) {
            parts.add(new String[] {"are decided by " + show(rule[1]) + " instead of " + show(rule[0]),
                "is decided by " + show(rule[1]) + " instead of " + show(rule[0])});
        }
        return new Phrase(String.join(", and ", parts.stream().map(p -> p[0]).toList()),
                String.join(", and ", parts.stream().map(p -> p[1]).toList()));
    }

    /** Dispatch's model choice: a switch of model first, else the score's direction. */
    private static String[] model(JsonNode was, JsonNode now) {
        boolean lightBefore = was.path("light").asBoolean();
        boolean lightAfter = now.path("light").asBoolean();
        if (lightBefore != lightAfter) {
            String move = lightAfter ? "from the heavy to the light model" : "from the light to the heavy model";
            return new String[] {"move " + move, "moves " + move};
        }
        double a = was.path("score").asDouble();
        double b = now.path("score").asDouble();
        if (a != b) {
            String how = b < a ? "lower" : "higher";
            return new String[] {"keep their model with a " + how + " score", "keeps its model with a " + how + " score"};
        }
        return new String[] {"get another model (" + show(now.path("name")) + ")", "gets another model (" + show(now.path("name")) + ")"};
    }

    private static String[] field(String field, JsonNode was, JsonNode now) {
        String change = show(now) + " instead of " + show(was);
        return switch (field) {
            case "primary_recipients" -> new String[] {"go to " + change, "goes to " + change};
            case "fan_out" -> new String[] {"copy " + change, "copies " + change};
            case "agent_id" -> new String[] {"go to agent " + change, "goes to agent " + change};
            case "action" -> new String[] {"get the action " + change, "gets the action " + change};
            case "to" -> new String[] {"move to state " + change, "moves to state " + change};
            case "next" -> new String[] {"hand off to " + show(now.path("agent")) + " (" + show(now.path("type")) + ") instead of "
                + show(was.path("agent")) + " (" + show(was.path("type")) + ")", "hands off to " + show(now.path("agent"))
                + " (" + show(now.path("type")) + ") instead of " + show(was.path("agent")) + " (" + show(was.path("type")) + ")"};
            case "store_in_memory" -> now.asBoolean() ? new String[] {"are now stored in memory", "is now stored in memory"}
                : new String[] {"are no longer stored in memory", "is no longer stored in memory"};
            default -> new String[] {"get " + field + " " + change, "gets " + field + " " + change};
        };
    }

    /** A value as an analyst reads it: lists as "a, b", text without quotes, nothing as "nothing". */
    static String show(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "nothing";
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(show(x)));
            return items.isEmpty() ? "no one" : String.join(", ", items);
        }
        if (v.isObject()) {
            return v.has("type") ? v.path("type").asText() + (v.has("value") ? " " + v.path("value").asText() : "") : v.toString();
        }
        return v.asText();
    }
}
