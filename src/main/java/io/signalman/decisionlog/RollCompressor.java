package io.signalman.decisionlog;

import io.signalman.datadir.FileRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compresses each decision-log file once it has rolled, on a thread of its own so that the
 * writer never waits for it: {@code x.jsonl} becomes {@code x.jsonl.gz} (gzip from the JDK, about
 * a tenth of the size; replay reads both). The compressed file is written beside it as
 * {@code x.jsonl.gz.tmp}, forced to disk and renamed, and only then is {@code x.jsonl} deleted, so
 * a crash at any point leaves a whole file to replay (if both are left, replay reads the
 * {@code .gz} and skips the other).
 */
final class RollCompressor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RollCompressor.class);

    private final FileRegistry registry;

    RollCompressor(FileRegistry registry) {
        this.registry = registry;
    }

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "signalman-decision-log-gzip");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
    });

    /** Queues a rolled, closed file for compression. */
    void submit(Path rolled) {
        thread.execute(() -> {
            try {
                compress(rolled, registry);
            } catch (IOException e) {
                LOG.error("decision log file {} could not be compressed (it stays as it is): {}", rolled, e.toString());
            }
        });
    }

    /** Compresses {@code file} beside itself; the registry learns of the {@code .gz} before the original goes. */
    static Path compress(Path file, FileRegistry registry) throws IOException {
        Path gz = file.resolveSibling(file.getFileName() + ".gz");
        Path tmp = file.resolveSibling(file.getFileName() + ".gz.tmp");
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

    /** Finishes the files already queued (a clean shutdown leaves no rolled file uncompressed). */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.error("decision log compression did not finish within 60 s; the rest stays uncompressed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
