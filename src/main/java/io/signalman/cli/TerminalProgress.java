package io.signalman.cli;

import io.signalman.replay.PlainProgress;
import io.signalman.replay.ReplayListener;
import io.signalman.replay.ReplayReport;
import java.io.PrintStream;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Replay progress on a terminal: a bar over the archive's bytes (percent, MB/s, time left) with
 * the records replayed and their rate beside it, redrawn in place on standard error. When
 * standard error is not a terminal (a log, a CI job), {@link PlainProgress} prints a line every
 * few seconds instead.
 */
final class TerminalProgress implements ReplayListener {

    private static final long MB = 1024 * 1024;

    private final ProgressBar bar;
    private final long start = System.nanoTime();

    private TerminalProgress(ProgressBar bar) {
        this.bar = bar;
    }

    /** The listener for {@code replay}: none with {@code --quiet}, a bar on a terminal, plain lines otherwise. */
    static ReplayListener forReplay(boolean quiet, long totalBytes, PrintStream err) {
        if (quiet) {
            return ReplayListener.NONE;
        }
        if (System.console() == null || err != System.err) {
            return new PlainProgress(err);
        }
        return new TerminalProgress(new ProgressBarBuilder().setTaskName("replay").setInitialMax(Math.max(1, totalBytes))
                .setUnit(" MB", MB).setStyle(ProgressBarStyle.ASCII).showSpeed()
                .setConsumer(new ConsoleProgressBarConsumer(err)).setUpdateIntervalMillis(500).build());
    }

    @Override
    public void progress(long records, long bytesRead, long totalBytes) {
        bar.stepTo(bytesRead);
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        bar.setExtraMessage(String.format(Locale.ROOT, " %,d records, %,.0f records/s", records, records / seconds));
    }

    @Override
    public void finished(ReplayReport report) {
        bar.close();
    }
}
