package io.signalman.datadir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What a writer tells the data directory's {@link Manifest} about its files, so that a start can
 * tell a missing or foreign piece from a whole directory: a file is registered before it is
 * created, its length and checksum once it is complete, a replacement (a rolled log file
 * compressed) before the original goes, and a removal before it happens. A registration that
 * cannot be written (a full disk) fails the write that needed it.
 */
public interface FileRegistry {

    /** {@code file} is about to be created. */
    void adding(Path file) throws IOException;

    /** {@code file} is complete: nothing more is appended; its length and CRC32C. */
    void closed(Path file, long bytes, int crc) throws IOException;

    /** {@code to} (complete: its length and CRC32C) replaces {@code from}, which is about to be deleted. */
    void replaced(Path from, Path to, long bytes, int crc) throws IOException;

    /** {@code file} is about to be deleted (spent or superseded). */
    void removing(Path file) throws IOException;

    /**
     * The data directory's id, which a keyed {@link LogHead} is bound to, or null for a writer
     * outside a data directory (nothing is recorded, and nothing is compared).
     */
    default String dataId() {
        return null;
    }

    /**
     * Whether the start that opened the data directory created it: there was no manifest and no
     * file of ours, so no log in it can have been removed (every other directory lacking a log's
     * record lost it, or predates it).
     */
    default boolean created() {
        return false;
    }

    /** What was last recorded of the chained log {@code name}, or null when nothing was. */
    default LogHead head(String name) {
        return null;
    }

    /**
     * Records the chained log {@code name} as it is now, once its newest entry is on disk: the log
     * is always written first, so a crash between the two leaves it ahead of its record, never behind.
     */
    default void head(String name, LogHead head) throws IOException {
    }

    /** For a writer outside a data directory (tests, tools): nothing is recorded. */
    FileRegistry NONE = new FileRegistry() {
        @Override
        public void adding(Path file) {
        }

        @Override
        public void closed(Path file, long bytes, int crc) {
        }

        @Override
        public void replaced(Path from, Path to, long bytes, int crc) {
        }

        @Override
        public void removing(Path file) {
        }
    };
}
