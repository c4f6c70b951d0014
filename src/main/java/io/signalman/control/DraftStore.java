package io.signalman.control;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.SortedMap;

/**
 * Drafts as whole values: a record (its version, status, base revision, authors) and its files.
 * A change replaces the draft it was made to ({@link #replace}): the record's version is the
 * compare-and-set, so two saves of one version cannot both land, on one node or across a cluster.
 */
public interface DraftStore {

    /** A draft: its record and its files (relative path to bytes). */
    record Draft(ObjectNode record, SortedMap<String, byte[]> files) {

        public long version() {
            return record.path("version").asLong(1);
        }
    }

    List<String> ids();

    /** The draft {@code id}, or null. */
    Draft get(String id);

    /** Stores a new draft; false when the id is taken. */
    boolean create(String id, Draft draft);

    /**
     * Replaces the draft at {@code before}'s version by {@code after}; false when it moved on
     * (another save landed first).
     */
    boolean replace(String id, Draft before, Draft after);

    /** Deletes the draft (pruning closed ones). */
    void delete(String id);
}
