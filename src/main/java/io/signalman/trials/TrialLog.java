package io.signalman.trials;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trial log: what each candidate decided, one JSON object a line, kept apart from the decision
 * log under {@code <data>/trials/log/}. Like the decision log it is written on a thread of its
 * own in batches, rolled at {@code rollBytes} and the rolled file compressed ({@code .jsonl.gz});
 * unlike it, it is bounded: past {@code keepFiles} files the oldest is deleted. It is a record for
 * people, not the write-ahead log of anything, so it is never waited for: a line that finds the
 * queue full is dropped and counted, and the file is forced only when it rolls and at close.
 */
final class TrialLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TrialLog.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final byte[] STOP = new byte[0];

    private final Path dir;
    private final long rollBytes;
    private final int keepFiles;
    private final BlockingQueue<byte[]> queue;
    private final LongAdder dropped = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final Thread writer;
    private final String started = STAMP.format(Instant.now());
    private FileChannel channel;
    private Path current;
    private long bytes;
    private int sequence;

    TrialLog(Path dir, long rollBytes, int keepFiles, int queueSize) {
        this.dir = dir;
        this.rollBytes = rollBytes;
        this.keepFiles = Math.max(1, keepFiles);
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.writer = new Thread(this::run, "signalman-trial-log");
        writer.setDaemon(true);
        writer.start();
    }

    /** Queues one line (without its newline); false when it was dropped. Never waits. */
    boolean write(byte[] line) {
        if (!queue.offer(line)) {
            dropped.increment();
            return false;
        }
        return true;
    }

    long dropped() {
        return dropped.sum();
    }

    /** Lines written to a file so far. */
    long written() {
        return written.sum();
    }

    Path directory() {
        return dir;
    }

    private void run() {
        List<byte[]> batch = new ArrayList<>();
        try {
            while (true) {
                byte[] first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, 4096);
                boolean stop = batch.remove(STOP);
                write(batch);
                if (stop) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeFile();
        }
    }

    private void write(List<byte[]> lines) {
        if (lines.isEmpty()) {
            return;
        }
        try {
            if (channel == null || bytes >= rollBytes) {
                roll();
            }
            int size = 0;
            for (byte[] l : lines) {
                size += l.length + 1;
            }
            ByteBuffer buf = ByteBuffer.allocate(size);
            for (byte[] l : lines) {
                buf.put(l).put((byte) '\n');
            }
            buf.flip();
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            bytes += size;
            written.add(lines.size());
        } catch (IOException e) {
            // A record for people: a disk that refuses it costs these lines, never a decision.
            dropped.add(lines.size());
            LOG.warn("trial log {}: {} lines not written: {}", current, lines.size(), e.toString());
        }
    }

    private void roll() throws IOException {
        Path rolled = current;
        closeFile();
        if (rolled != null) {
            compress(rolled);
        }
        Files.createDirectories(dir);
        sequence++;
        current = dir.resolve("trials-" + started + "-" + ProcessHandle.current().pid() + "-" + String.format("%06d", sequence)
                + ".jsonl");
        channel = FileChannel.open(current, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        bytes = Files.size(current);
        prune();
    }

    /** {@code x.jsonl} becomes {@code x.jsonl.gz}: written beside it, forced, renamed, then the original goes. */
    private static void compress(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".gz.tmp");
        try (InputStream in = Files.newInputStream(file); OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp))) {
            in.transferTo(out);
        } catch (IOException e) {
            LOG.warn("trial log {} could not be compressed (it stays as it is): {}", file, e.toString());
            return;
        }
        try {
            try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                c.force(true);
            }
            Files.move(tmp, file.resolveSibling(file.getFileName() + ".gz"), StandardCopyOption.ATOMIC_MOVE);
            Files.delete(file);
        } catch (IOException e) {
            LOG.warn("trial log {} could not be compressed (it stays as it is): {}", file, e.toString());
        }
    }

    /** The files of the log, oldest first (their names sort in the order they were written). */
    List<Path> files() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("trials-") && (n.endsWith(".jsonl") || n.endsWith(".jsonl.gz"));
            }).sorted().toList();
        }
    }

    private void prune() throws IOException {
        List<Path> files = files();
        for (int i = 0; i < files.size() - keepFiles; i++) {
            Files.deleteIfExists(files.get(i));
        }
    }

    private void closeFile() {
        if (channel == null) {
            return;
        }
        try {
            channel.force(true);
            channel.close();
        } catch (IOException e) {
            LOG.warn("trial log {} could not be closed cleanly: {}", current, e.toString());
        }
        channel = null;
    }

    /** Writes what is queued and closes the file. */
    @Override
    public void close() {
        try {
            queue.put(STOP);
            writer.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
