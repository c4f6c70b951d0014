package io.signalman.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads reference data of the shape {@code {"<field>": [ {...}, {...} ]}} element by element, so
 * every element keeps the line it starts on and every error points into the analyst's file.
 */
public final class ReferenceJson {

    private ReferenceJson() {
    }

    public static <T> List<Located<T>> readList(byte[] bytes, String field, Class<T> type) throws Unreadable {
        List<Located<T>> out = new ArrayList<>();
        try (JsonParser p = Json.MAPPER.createParser(bytes)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "a JSON object");
            boolean seen = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonLocation at = p.currentLocation();
                if (!name.equals(field)) {
                    throw new Unreadable(at.getLineNr(), at.getColumnNr(),
                            "unknown field \"" + name + "\"; this file has one field, \"" + field + "\"");
                }
                seen = true;
                expect(p, p.nextToken(), JsonToken.START_ARRAY, "an array for \"" + field + "\"");
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    JsonLocation start = p.currentTokenLocation();
                    out.add(new Located<>(read(p, type, start), start.getLineNr(), start.getColumnNr()));
                }
                expect(p, p.currentToken(), JsonToken.END_ARRAY, "objects in \"" + field + "\"");
            }
            if (!seen) {
                JsonLocation at = p.currentLocation();
                throw new Unreadable(at.getLineNr(), at.getColumnNr(), "missing field \"" + field + "\"");
            }
            if (p.nextToken() != null) {
                JsonLocation at = p.currentTokenLocation();
                throw new Unreadable(at.getLineNr(), at.getColumnNr(), "unexpected content after the JSON object");
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new Unreadable(at == null ? 0 : at.getLineNr(), at == null ? 0 : at.getColumnNr(),
                    "malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Unreadable(0, 0, "cannot read: " + e.getMessage());
        }
        return out;
    }

    private static <T> T read(JsonParser p, Class<T> type, JsonLocation start) throws Unreadable, IOException {
        try {
            // Reading one element of a stream: the tokens after it are the next elements, not trailing junk.
            return Json.MAPPER.readerFor(type).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(p);
        } catch (UnrecognizedPropertyException e) {
            JsonLocation at = e.getLocation() == null ? start : e.getLocation();
            throw new Unreadable(at.getLineNr(), at.getColumnNr(), "unknown field \"" + e.getPropertyName()
                    + "\"; known fields are " + e.getKnownPropertyIds());
        } catch (JsonMappingException e) {
            JsonLocation at = e.getLocation() == null ? start : e.getLocation();
            throw new Unreadable(at.getLineNr(), at.getColumnNr(), e.getOriginalMessage());
        }
    }

    private static void expect(JsonParser p, JsonToken got, JsonToken want, String what) throws Unreadable {
        if (got != want) {
            JsonLocation at = p.currentTokenLocation();
            throw new Unreadable(at.getLineNr(), at.getColumnNr(), "expected " + what + ", found "
                    + (got == null ? "end of file" : got.asString() == null ? got.name() : "'" + got.asString() + "'"));
        }
    }
}
