package io.signalman.decisionlog;

import io.signalman.datadir.FileRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
        return io.signalman.datadir.Gzip.compress(file, file.resolveSibling(file.getFileName() + ".gz"), registry);
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
