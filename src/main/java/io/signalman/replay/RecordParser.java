package io.signalman.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads one archive line into a {@link DecisionRecord} with Jackson's streaming parser, building
 * trees only for what replay uses: the input, the state before, and the recorded decision's
 * fields (and, for {@code --accept}, which writes a record back, the state after, the endpoint
 * and the revision). NOTE(perf): a record's {@code rules_fired} is about half of its bytes and
 * replay never compares it, so the replay path skips it token by token (no strings, no nodes)
 * instead of building it; the parse was about a fifth of a replayed record's time in a JFR
 * profile. The replay path likewise leaves {@code endpoint} and {@code rules_revision} undecoded
 * (Jackson skips a string it is never asked for): no report, selection or change observer reads
 * them, and the revision (a 71-character hash) is the longest text of a record's header.
 */
final class RecordParser {

    /** Same limits as a request body (depth and string length), without duplicate-key detection. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Json.MAX_DEPTH)
                    .maxStringLength(Json.MAX_STRING).build())
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RecordParser() {
    }

    /** The whole record, as the decision log wrote it. */
    static DecisionRecord parse(byte[] bytes, int offset, int length) throws InputException {
        return parse(bytes, offset, length, true);
    }

    /**
     * The record without what replay never reads: the decision's {@code rules_fired} and
     * {@code reason}, {@code state_after}, {@code endpoint} and {@code rules_revision} (null here).
     */
    static DecisionRecord parseForReplay(byte[] bytes, int offset, int length) throws InputException {
        return parse(bytes, offset, length, false);
    }

    private static DecisionRecord parse(byte[] bytes, int offset, int length, boolean whole) throws InputException {
        String id = null;
        String at = null;
        String pack = null;
        String endpoint = null;
        String revision = null;
        JsonNode input = null;
        JsonNode decision = null;
        JsonNode state = null;
        JsonNode after = null;
        JsonNode trial = null;
        String traceId = null;
        try (JsonParser p = FACTORY.createParser(bytes, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new InputException("", "a decision record is a JSON object");
            }
            String field;
            while ((field = p.nextFieldName()) != null) {
                JsonToken t = p.nextToken();
                switch (field) {
                    case "decision_id" -> id = text(p, t, field);
                    case "at" -> at = text(p, t, field);
                    case "pack" -> pack = text(p, t, field);
                    case "endpoint" -> endpoint = whole ? text(p, t, field) : unread(t, field);
                    case "rules_revision" -> revision = whole ? text(p, t, field) : unread(t, field);
                    case "input" -> input = tree(p, t);
                    case "state_before" -> state = tree(p, t);
                    // Replay never reads it; --accept writes it back as it was.
                    case "state_after" -> {
                        if (whole) {
                            after = tree(p, t);
                        } else {
                            p.skipChildren();
                        }
                    }
                    case "trial" -> trial = tree(p, t);
                    // Replay never reads it either; --accept writes it back as it was.
                    case "trace_id" -> traceId = whole ? text(p, t, field) : unread(t, field);
                    case "decision" -> decision = whole || t != JsonToken.START_OBJECT ? tree(p, t) : compared(p);
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new InputException("", "malformed JSON: more than one value on the line");
            }
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
            throw new InputException("", "malformed JSON" + where + ": " + e.getOriginalMessage(), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (decision == null || !decision.isObject()) {
            throw new InputException("decision", "a decision record needs a \"decision\" object");
        }
        if (input == null || input.isNull()) {
            throw new InputException("input", "a decision record needs an \"input\"");
        }
        if (id == null) {
            throw new InputException("decision_id", "a decision record needs \"decision_id\"");
        }
        if (pack == null) {
            throw new InputException("pack", "a decision record needs \"pack\"");
        }
        return new DecisionRecord(id, at, pack, endpoint, revision, input, (ObjectNode) decision,
                state == null || state.isNull() ? null : state, after == null || after.isNull() ? null : after,
                trial == null || trial.isNull() ? null : trial, traceId);
    }

    /** The decision object without the fields replay does not compare. */
    private static ObjectNode compared(JsonParser p) throws IOException {
        ObjectNode out = Json.object();
        String field;
        while ((field = p.nextFieldName()) != null) {
            p.nextToken();
            if ("rules_fired".equals(field) || "reason".equals(field)) {
                p.skipChildren();
            } else {
                out.set(field, tree(p, p.currentToken()));
            }
        }
        return out;
    }

    /**
     * The value at the parser's current token as a tree, with the node types Jackson's
     * {@code readTree} gives (an int is an IntNode, a fraction a DoubleNode), so that it compares
     * equal to what a pack renders. NOTE(perf): without the data-binding machinery a
     * {@code readTree} call sets up, which a record paid for several times.
     */
    private static JsonNode tree(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT -> {
                ObjectNode o = NODES.objectNode();
                String name;
                while ((name = p.nextFieldName()) != null) {
                    o.set(name, tree(p, p.nextToken()));
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken x = p.nextToken(); x != JsonToken.END_ARRAY; x = p.nextToken()) {
                    a.add(tree(p, x));
                }
                return a;
            }
            case VALUE_STRING -> {
                return NODES.textNode(p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return switch (p.getNumberType()) {
                    case INT -> NODES.numberNode(p.getIntValue());
                    case LONG -> NODES.numberNode(p.getLongValue());
                    default -> NODES.numberNode(p.getBigIntegerValue());
                };
            }
            case VALUE_NUMBER_FLOAT -> {
                // Exactly as logged: the log keeps decimals as sent, and a double would
                // turn 0.1000000000000000000000000001 back into 0.1 before replay decides again.
                return com.fasterxml.jackson.databind.node.DecimalNode.valueOf(p.getDecimalValue());
            }
            case VALUE_TRUE -> {
                return NODES.booleanNode(true);
            }
            case VALUE_FALSE -> {
                return NODES.booleanNode(false);
            }
            case VALUE_NULL -> {
                return NODES.nullNode();
            }
            default -> throw new JsonParseException(p, "unexpected " + t);
        }
    }

    private static String text(JsonParser p, JsonToken t, String field) throws IOException, InputException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw new InputException(field, "\"" + field + "\" must be a string");
        }
        return p.getText();
    }

    /**
     * A text field replay does not read: its type is checked as {@link #text} checks it (a record
     * that is unreadable stays so), its characters are never decoded; null.
     */
    private static String unread(JsonToken t, String field) throws InputException {
        if (t != JsonToken.VALUE_NULL && t != JsonToken.VALUE_STRING) {
            throw new InputException(field, "\"" + field + "\" must be a string");
        }
        return null;
    }

    static String unreadable(Archive.ArchiveFile file, int line, InputException e) {
        return file.path() + ":" + line + ": unreadable record" + (e.field().isEmpty() ? "" : " (" + e.field() + ")") + ": "
                + e.getMessage();
    }

    static String torn(Archive.ArchiveFile file, int line, int length) {
        return file.path() + ":" + line + ": torn last line skipped (" + length + " bytes)";
    }
}
