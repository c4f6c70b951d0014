package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Shrinks an input that breaks an invariant to a smaller one that still breaks it: fields and
 * array items are dropped, text emptied, numbers zeroed, one at a time, keeping each change only
 * if the input still parses and the same invariant still fails. Greedy and bounded: what it
 * returns is a local minimum, which is what an analyst needs to see the cause.
 */
final class Shrinker {

    static final int MAX_TRIES = 300;

    private Shrinker() {
    }

    static <I, D> JsonNode shrink(DecisionPack<I, D> pack, RuleBundle bundle, Invariant<I, D> invariant, JsonNode input,
                                  JsonNode stateBefore) {
        JsonNode current = input.deepCopy();
        int tries = 0;
        boolean progress = true;
        while (progress && tries < MAX_TRIES) {
            progress = false;
            for (JsonNode candidate : simpler(current)) {
                if (++tries > MAX_TRIES) {
                    break;
                }
                if (fails(pack, bundle, invariant, candidate, stateBefore)) {
                    current = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return current;
    }

    private static <I, D> boolean fails(DecisionPack<I, D> pack, RuleBundle bundle, Invariant<I, D> invariant, JsonNode input,
                                        JsonNode stateBefore) {
        try {
            I parsed = pack.parseRecord(input, stateBefore);
            return invariant.check(parsed, pack.decide(bundle, parsed, false), i -> pack.decide(bundle, i, false)).isPresent();
        } catch (InputException | RuntimeException e) {
            return false;
        }
    }

    /** Every input one step simpler than {@code node}, smallest steps last. */
    static List<JsonNode> simpler(JsonNode node) {
        List<JsonNode> out = new ArrayList<>();
        visit(node, node, out);
        return out;
    }

    private static void visit(JsonNode root, JsonNode node, List<JsonNode> out) {
        if (node instanceof ObjectNode o) {
            for (String field : iterable(o)) {
                out.add(edited(root, node, n -> ((ObjectNode) n).remove(field)));
            }
            for (String field : iterable(o)) {
                JsonNode child = o.get(field);
                if (child.isTextual() && !child.textValue().isEmpty()) {
                    out.add(edited(root, node, n -> ((ObjectNode) n).set(field, TextNode.valueOf(""))));
                } else if (child.isNumber() && child.asDouble() != 0) {
                    out.add(edited(root, node, n -> ((ObjectNode) n).set(field, IntNode.valueOf(0))));
                }
                visit(root, child, out);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                int index = i;
                out.add(edited(root, node, n -> ((ArrayNode) n).remove(index)));
                visit(root, a.get(i), out);
            }
        }
    }

    /** A copy of {@code root} in which the node at the same place as {@code target} is edited. */
    private static JsonNode edited(JsonNode root, JsonNode target, Consumer<JsonNode> edit) {
        JsonNode copy = root.deepCopy();
        edit.accept(find(root, target, copy));
        return copy;
    }

    private static JsonNode find(JsonNode original, JsonNode target, JsonNode copy) {
        if (original == target) {
            return copy;
        }
        if (original instanceof ObjectNode o) {
            for (String f : iterable(o)) {
                JsonNode found = find(o.get(f), target, copy.get(f));
                if (found != null) {
                    return found;
                }
            }
        } else if (original instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode found = find(a.get(i), target, copy.get(i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static List<String> iterable(ObjectNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
