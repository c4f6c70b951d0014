package io.signalman.replay;

import io.signalman.engine.RuleBundle;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Replays an archive: one thread reads the files and cuts them into chunks of lines, the
 * replaying threads each parse, decide, compare and check their chunks into their own partial
 * report, and the parts are merged when the archive is done. Records are independent (each
 * carries its {@code state_before}), so any split gives the same report; memory is bounded by the
 * chunks in flight and the report's bounded examples, never by the archive.
 */
public final class Replayer {

    private static final LineChunks.Chunk END = new LineChunks.Chunk(null, null, null, null, null, 0, false);

    private final RuleBundle candidate;
    private final RuleBundle baseline;
    private final PrintStream progress;

    /**
     * @param baseline rules to compare with, or null to compare with the recorded decisions
     * @param progress where to print progress lines on long archives, or null
     */
    public Replayer(RuleBundle candidate, RuleBundle baseline, PrintStream progress) {
        this.candidate = Objects.requireNonNull(candidate);
        this.baseline = baseline;
        this.progress = progress;
    }

    /** Every record of the archive, on every core, determinism checked on a sample ({@link ReplayRequest#of}). */
    public ReplayReport replay(Archive archive) {
        return run(ReplayRequest.of(candidate, archive).withBaseline(baseline)
                .withListener(progress == null ? null : new PlainProgress(progress)));
    }

    /** Runs one replay on the calling thread and {@code request.threads()} replaying threads. */
    public static ReplayReport run(ReplayRequest request) {
        ReplayReport report = tally(request).report();
        request.listener().finished(report);
        return report;
    }

    /**
     * The same replay, as its unfinished-to-share tally: what a cluster member sends to be merged
     * with the others' before the report is made.
     */
    public static ReplayTally tally(ReplayRequest request) {
        long start = System.nanoTime();
        ReplayBundles bundles = new ReplayBundles(request.candidate(), request.baseline(), request.archive());
        ReplayTally total = new ReplayTally();
        BlockingQueue<LineChunks.Chunk> queue = new ArrayBlockingQueue<>(2 * request.threads());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<RecordReplay> parts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < request.threads(); i++) {
            RecordReplay part = new RecordReplay(bundles, request.selection(), request.observer(), request.determinism());
            parts.add(part);
            Thread t = new Thread(() -> work(queue, part, failure), "signalman-replay-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        try {
            read(request, bundles, total, chunk -> put(queue, chunk, failure));
            for (int i = 0; i < threads.size(); i++) {
                put(queue, END, failure);
            }
            if (failure.get() != null) {
                threads.forEach(Thread::interrupt);
            }
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the replay was interrupted", e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the replay failed: " + failure.get(), failure.get());
        }
        parts.forEach(p -> total.merge(p.tally()));
        request.archive().files().forEach(f -> total.covers(f.index()));
        total.describe(request.candidate().revision(), request.baseline() == null ? "the recorded decisions"
                : "rules " + request.baseline().revision(), request.selection().describe());
        total.determinism(request.determinism());
        total.finish(request.candidate());
        total.elapsedSeconds((System.nanoTime() - start) / 1e9);
        return total;
    }

    /** Reads every file of the archive, in order, into chunks; problems of the files themselves go to {@code report}. */
    private static void read(ReplayRequest request, ReplayBundles bundles, ReplayTally report, LineChunks.ChunkSink sink)
            throws InterruptedException {
        long totalBytes = request.archive().bytes();
        long[] done = {0, 0};
        for (Archive.ArchiveFile file : request.archive().files()) {
            long position = Firsts.position(file.index(), 0);
            String refused = bundles.refused(file);
            if (refused != null) {
                report.problem(position, new ReplayReport.Problem(refused, true, false));
                continue;
            }
            report.read(file.argument(), 0L);
            try (Counting raw = new Counting(Files.newInputStream(file.path())); InputStream in = LineChunks.open(file, raw)) {
                LineChunks.cut(file, in, chunk -> {
                    sink.accept(chunk);
                    done[0] += chunk.count();
                    request.listener().progress(done[0], done[1] + raw.count, totalBytes);
                }, (line, message, fatal) -> report.problem(Firsts.position(file.index(), line),
                        new ReplayReport.Problem(file.path() + ":" + line + ": " + message, fatal, false)));
                done[1] += raw.count;
            } catch (IOException e) {
                report.problem(position, new ReplayReport.Problem(file.path() + ": cannot be read: " + e, true, false));
            }
        }
        request.listener().progress(done[0], totalBytes, totalBytes);
    }

    private static void work(BlockingQueue<LineChunks.Chunk> queue, RecordReplay part, AtomicReference<Throwable> failure) {
        try {
            for (LineChunks.Chunk c = queue.take(); c != END; c = queue.take()) {
                if (failure.get() == null) {
                    part.chunk(c);
                }
            }
        } catch (Throwable e) {
            // Not a record's problem (those are in the report): a bug, an interruption, or a checked
            // exception thrown sneakily from generated rule code. Whatever it is, it is recorded, so
            // the reading thread stops offering chunks that nobody would take (it would wait forever)
            // and the replay fails rather than count less.
            failure.compareAndSet(null, e);
            queue.clear();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Queues a chunk, giving up if a replaying thread failed (it no longer takes chunks). */
    private static void put(BlockingQueue<LineChunks.Chunk> queue, LineChunks.Chunk chunk, AtomicReference<Throwable> failure)
            throws InterruptedException {
        while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
            if (failure.get() != null) {
                return;
            }
        }
    }

    /** Counts the bytes read from the file (before decompression), for progress. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count += Math.max(n, 0);
            return n;
        }
    }
}
