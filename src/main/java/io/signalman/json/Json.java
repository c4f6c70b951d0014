package io.signalman.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one configured Jackson mapper: snake_case on the wire, unknown fields and trailing tokens
 * refused, duplicate keys refused, nesting depth and string length bounded (a client cannot make
 * the parser recurse or allocate without limit).
 */
public final class Json {

    public static final int MAX_DEPTH = 32;
    public static final int MAX_STRING = 64 * 1024;

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            // Decimals are kept exactly as sent, from the request to the log: a double
            // would turn 0.1000000000000000000000000001 into 0.1 and 1e999 into Infinity.
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    static {
        // No silent coercion: a value of the wrong JSON type is a client error naming
        // the field, never converted ("3" or 3.7 as the count 3, "true" as true, 1 as "1").
        coerceNever(LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean);
        coerceNever(LogicalType.Integer, CoercionInputShape.String, CoercionInputShape.Float, CoercionInputShape.Boolean,
                CoercionInputShape.EmptyString);
        coerceNever(LogicalType.Float, CoercionInputShape.String, CoercionInputShape.Boolean, CoercionInputShape.EmptyString);
        coerceNever(LogicalType.Boolean, CoercionInputShape.String, CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.EmptyString);
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH).maxStringLength(MAX_STRING).build());
    }

    private Json() {
    }

    private static void coerceNever(LogicalType type, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            MAPPER.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
        }
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Parses a request body or archive line; malformed text is an {@link InputException}. */
    public static JsonNode parse(byte[] bytes) throws InputException {
        StrictUtf8.check(bytes);
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new InputException("", "the body is empty; expected a JSON document", true);
            }
            Finite.check(node);
            return node;
        } catch (JsonProcessingException e) {
            throw new InputException(path(e), "malformed JSON" + where(e.getLocation()) + ": " + e.getOriginalMessage(), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode parse(String text) throws InputException {
        return parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** {@code json} when it is an object; anything else, or no body, is refused as a whole, saying what was {@code expected}. */
    public static JsonNode requireObject(JsonNode json, String expected) throws InputException {
        if (json == null || !json.isObject()) {
            throw new InputException("", expected);
        }
        return json;
    }

    /** Binds a tree to a record, naming the field path of whatever is wrong. */
    public static <T> T bind(JsonNode node, Class<T> type) throws InputException {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new InputException(path(e), "unknown field \"" + e.getPropertyName() + "\"; known fields are "
                    + e.getKnownPropertyIds());
        } catch (JsonMappingException e) {
            throw new InputException(path(e), e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new InputException("", e.getOriginalMessage());
        }
    }

    /**
     * The first top-level field named {@code field} of a JSON object, when it is a string; else
     * null (not an object, no such field, another type, or not JSON: the real parse reports that).
     * Streams the top level only and skips nested values, so it costs a fraction of a real parse.
     */
    public static String topLevelString(byte[] json, String field) {
        try (JsonParser p = MAPPER.getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals(name)) {
                    return value == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    /**
     * The same JSON value: numbers compared by value, so a decimal read back from the log
     * ({@code 0.35} as a {@code BigDecimal}) equals the double a decision computed ({@code 0.35}).
     */
    public static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(NUMBERS_BY_VALUE, b);
    }

    private static final java.util.Comparator<JsonNode> NUMBERS_BY_VALUE = (x, y) -> {
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return x.equals(y) ? 0 : 1;
    };

    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** {@code envelope.from_agent}, {@code [2].subtype}: the path as a client would write it. */
    static String path(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException jme)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : jme.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String where(JsonLocation loc) {
        return loc == null || loc.getLineNr() < 0 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }
}
