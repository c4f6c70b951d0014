package io.signalman.control;

import java.util.Map;

/**
 * Copies of bundle revisions by content hash: every revision that was live before or after an
 * activation (what a rollback restores, what a member that joins loads) and every revision a
 * draft was made from. Written once: the content of a hash never changes.
 */
public interface RevisionStore {

    /** Keeps {@code files} as {@code revision} (once; a second keep of one revision does nothing). */
    void keep(String revision, Map<String, byte[]> files);

    boolean has(String revision);

    /** The files of {@code revision}, or null when no copy is kept. */
    Map<String, byte[]> read(String revision);
}
