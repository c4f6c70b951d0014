package io.signalman.datadir;

import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * How the writers of one data directory write: through which {@link Disk}, reporting outages to
 * which {@link Storage}, registering their files where ({@link FileRegistry}), and which files are
 * of format 1 (read without checksums).
 */
public record Writing(Disk disk, Storage storage, FileRegistry registry, Predicate<Path> legacy) {

    /** Outside a data directory (tests, benchmarks): the real disk, nothing registered, nothing legacy. */
    public static Writing plain() {
        return new Writing(Disk.REAL, new Storage(Disk.REAL), FileRegistry.NONE, p -> false);
    }

    /** The writers of an opened data directory. */
    public static Writing of(DataDir data, Disk disk, Storage storage) {
        return new Writing(disk, storage, data.registry(), data::legacy);
    }

    /** The same with another disk (a test's). */
    public Writing withDisk(Disk d) {
        return new Writing(d, new Storage(d), registry, legacy);
    }
}
