package io.signalman.control;

import io.signalman.json.Json;
import java.util.Map;

/** Kept revisions a cluster shares: the files of each, by content hash, in {@link Documents}; written once. */
public final class SharedRevisionStore implements RevisionStore {

    private final Documents docs;

    public SharedRevisionStore(Documents docs) {
        this.docs = docs;
    }

    @Override
    public void keep(String revision, Map<String, byte[]> files) {
        if (docs.get(revision) == null) {
            docs.create(revision, Json.write(FilesCodec.encode(files)));
        }
    }

    @Override
    public boolean has(String revision) {
        return revision != null && docs.get(revision) != null;
    }

    @Override
    public Map<String, byte[]> read(String revision) {
        String s = revision == null ? null : docs.get(revision);
        return s == null ? null : FilesCodec.decode(FilesCodec.parse(s));
    }
}
