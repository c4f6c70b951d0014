package io.signalman.replay;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress as plain lines, at most one every few seconds: for logs and for a standard error that
 * is not a terminal (where a redrawn bar would be noise).
 */
public final class PlainProgress implements ReplayListener {

    static final long EVERY_NANOS = 5_000_000_000L;

    private final PrintStream out;
    private final long start = System.nanoTime();
    private long last = start;

    public PlainProgress(PrintStream out) {
        this.out = out;
    }

    @Override
    public void progress(long records, long bytesRead, long totalBytes) {
        long now = System.nanoTime();
        if (now - last < EVERY_NANOS) {
            return;
        }
        last = now;
        double seconds = (now - start) / 1e9;
        double share = totalBytes == 0 ? 1 : (double) bytesRead / totalBytes;
        long left = share <= 0 ? 0 : Math.round(seconds / share - seconds);
        out.printf(Locale.ROOT, "replay: %,d records, %.0f%%, %,.0f records/s, about %d s left%n", records, share * 100,
                records / seconds, left);
    }
}
