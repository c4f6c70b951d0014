package io.signalman.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;

/**
 * Drafts a cluster shares: one record each ({@code {"record": ..., "files": ...}}) in
 * {@link Documents}; a replace is the map's compare-and-set on the whole value, so two saves of
 * one version on two nodes cannot both land.
 */
public final class SharedDraftStore implements DraftStore {

    private final Documents docs;

    public SharedDraftStore(Documents docs) {
        this.docs = docs;
    }

    @Override
    public List<String> ids() {
        return docs.keys();
    }

    @Override
    public Draft get(String id) {
        return id == null ? null : decode(docs.get(id));
    }

    @Override
    public boolean create(String id, Draft draft) {
        return docs.create(id, encode(draft));
    }

    @Override
    public boolean replace(String id, Draft before, Draft after) {
        String now = docs.get(id);
        Draft d = decode(now);
        return d != null && d.version() == before.version() && docs.replace(id, now, encode(after));
    }

    @Override
    public void delete(String id) {
        docs.remove(id);
    }

    private static String encode(Draft d) {
        ObjectNode n = Json.object();
        n.set("record", d.record());
        n.set("files", FilesCodec.encode(d.files()));
        return Json.write(n);
    }

    private static Draft decode(String s) {
        if (s == null) {
            return null;
        }
        JsonNode n = FilesCodec.parse(s);
        return new Draft((ObjectNode) n.get("record"), FilesCodec.decode(n.get("files")));
    }
}
