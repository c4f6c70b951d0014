package io.signalman.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The line on which every value of a JSON document starts, by path ({@code agents[2].id},
 * {@code parallel_groups[0].next_agent}). Reference data is bound with the ordinary mapper and
 * then validated; this lets each semantic error point at the analyst's line, not only syntax errors.
 */
public final class JsonLines {

    private final Map<String, Integer> lines;

    private JsonLines(Map<String, Integer> lines) {
        this.lines = lines;
    }

    /** Indexes a document; malformed input yields the lines read so far (binding reports the error). */
    public static JsonLines of(byte[] bytes) {
        Map<String, Integer> lines = new HashMap<>();
        Deque<String> paths = new ArrayDeque<>();
        Deque<int[]> indexes = new ArrayDeque<>();
        try (JsonParser p = Json.MAPPER.createParser(bytes)) {
            String field = null;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME) {
                    field = p.currentName();
                    continue;
                }
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    paths.pop();
                    indexes.pop();
                    continue;
                }
                String parent = paths.isEmpty() ? "" : paths.peek();
                String path;
                if (indexes.isEmpty()) {
                    path = "";
                } else if (indexes.peek()[0] >= 0) {
                    path = parent + "[" + indexes.peek()[0]++ + "]";
                } else {
                    path = parent.isEmpty() ? field : parent + "." + field;
                }
                lines.put(path, p.currentTokenLocation().getLineNr());
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    paths.push(path);
                    indexes.push(new int[] {t == JsonToken.START_ARRAY ? 0 : -1});
                }
            }
        } catch (IOException | RuntimeException e) {
            // Syntax errors are the binder's to report, with their own location.
        }
        return new JsonLines(lines);
    }

    /** The line of the value at {@code path}, else of its nearest parent, else 1. */
    public int line(String path) {
        String p = path;
        while (true) {
            Integer line = lines.get(p);
            if (line != null) {
                return line;
            }
            if (p.isEmpty()) {
                return 1;
            }
            int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
            p = cut < 0 ? "" : p.substring(0, cut);
        }
    }
}
