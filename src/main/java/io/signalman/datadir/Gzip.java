package io.signalman.datadir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A complete file compressed in place of itself, so that a crash at any point leaves one whole
 * copy: the compressed copy is written beside it as {@code <gz>.tmp}, forced and renamed; the
 * registry then learns that it replaces the original, and only then is the original deleted.
 * A start finishes what a crash cut short ({@link DataDir}).
 */
public final class Gzip {

    private Gzip() {
    }

    /** Compresses {@code file} into {@code gz}; returns {@code gz}. Blocking file I/O. */
    public static Path compress(Path file, Path gz, FileRegistry registry) throws IOException {
        Path tmp = gz.resolveSibling(gz.getFileName() + ".tmp");
        CRC32C crc = new CRC32C();
        try (InputStream in = Files.newInputStream(file);
             OutputStream out = new GZIPOutputStream(new CheckedOutputStream(Files.newOutputStream(tmp), crc), 1 << 16)) {
            in.transferTo(out);
        }
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(tmp, gz, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        registry.replaced(file, gz, Files.size(gz), (int) crc.getValue());
        Files.delete(file);
        return gz;
    }
}
