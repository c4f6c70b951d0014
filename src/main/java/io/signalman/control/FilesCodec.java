package io.signalman.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.Base64;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** A bundle's files as one JSON object, path to base64, for records the cluster holds (drafts, revisions, trials). */
public final class FilesCodec {

    private FilesCodec() {
    }

    public static ObjectNode encode(Map<String, byte[]> files) {
        ObjectNode n = Json.object();
        new TreeMap<>(files).forEach((p, b) -> n.put(p, Base64.getEncoder().encodeToString(b)));
        return n;
    }

    /** A record the control plane stored (so well-formed JSON; anything else is a damaged store). */
    public static JsonNode parse(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a control-plane record is not JSON: " + e.getMessage(), e);
        }
    }

    public static SortedMap<String, byte[]> decode(JsonNode n) {
        SortedMap<String, byte[]> out = new TreeMap<>();
        if (n != null) {
            n.fields().forEachRemaining(e -> out.put(e.getKey(), Base64.getDecoder().decode(e.getValue().asText())));
        }
        return out;
    }
}
