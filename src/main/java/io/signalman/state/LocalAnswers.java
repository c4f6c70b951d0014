package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single node's idempotency answers that survive a restart: a retry
 * after a restart, within the window, gets the first answer byte for byte and changes nothing.
 * Claims live in memory only (a claim dies with its process, as the request does).
 *
 * <p>An answer is appended, sealed, to {@code DATA/state/answers/answers-N.jsonl} after the change
 * it answers is written (the request's work has returned) and before the client hears it; forced
 * with {@code --fsync always}, and otherwise every second only after the decision log has been
 * forced as far as it was written ({@link #forceAfter}). Each line names what its request made
 * durable ({@code needs}: state versions, decision-log records); a start keeps an answer only when
 * all of it is there, so an answer is never durable without its change, whatever a crash or a
 * power cut kept of each file. A file is rolled every {@link #ROLL}, and deleted once every answer
 * in it is past its window. Bounded in memory like the node's own map ({@link #MAX_BYTES}).
 */
public final class LocalAnswers implements SharedAnswers, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalAnswers.class);
    static final long MAX_BYTES = 64L * 1024 * 1024;
    static final Duration ROLL = Duration.ofMinutes(10);

    private record Entry(Held held, long until) {
        long bytes() {
            return (held.body() == null ? 0 : held.body().length) + held.digest().length + 64L;
        }
    }

    private final Path dir;
    private final FsyncPolicy fsync;
    private final Clock clock;
    private final Writing writing;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    private long bytes;
    private RecordFile file;
    /** Files rolled in this run, with the end of the last window they hold: deleted once past it. */
    private final java.util.List<Map.Entry<Path, Long>> rolled = new java.util.ArrayList<>();
    private long openedAt;
    private long lastUntil;

    private LocalAnswers(Path dir, FsyncPolicy fsync, Clock clock, Writing writing) {
        this.dir = dir;
        this.fsync = fsync;
        this.clock = clock;
        this.writing = writing;
    }

    /** Outside a data directory (tests): every answer read back is kept. */
    public static LocalAnswers open(Path dir, FsyncPolicy fsync, Clock clock) {
        return open(dir, fsync, clock, Writing.plain(), needs -> true);
    }

    /**
     * Reads the answers still within their window whose {@code needs} all hold ({@code present}
     * judges one), deletes spent files, opens a new one. Blocking; at start-up, after the state
     * and the decision log are recovered.
     */
    public static LocalAnswers open(Path dir, FsyncPolicy fsync, Clock clock, Writing writing, Predicate<JsonNode> present) {
        LocalAnswers a = new LocalAnswers(dir, fsync, clock, writing);
        try {
            Files.createDirectories(dir);
            long now = clock.millis();
            int dropped = 0;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.getFileName().toString().matches("answers-\\d+\\.jsonl")).sorted().toList()) {
                    int[] counts = a.read(f, now, present);
                    dropped += counts[1];
                    if (counts[0] == 0) {
                        writing.registry().removing(f);
                        Files.delete(f);
                    }
                }
            }
            if (dropped > 0) {
                LOG.warn("{} idempotency answers dropped: the changes they answer are not in the data directory (lost with "
                        + "the last moments before a power cut); their retries run again", dropped);
            }
            a.roll(now);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the idempotency answers in " + dir, e);
        }
        return a;
    }

    @Override
    public synchronized Optional<Held> claim(String id, byte[] digest, Duration reserve) {
        long now = clock.millis();
        Entry e = entries.get(id);
        if (e != null && e.until() > now) {
            return Optional.of(e.held());
        }
        put(id, new Entry(new Held(digest, -1, null), now + reserve.toMillis()));
        return Optional.empty();
    }

    @Override
    public void complete(String id, byte[] digest, int status, byte[] body, Duration window) {
        complete(id, digest, status, body, window, List.of());
    }

    /**
     * Writes the answer (forced under {@code always}), then holds it.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refuses the write: nothing is
     *                                                 written, and the key keeps its claim
     */
    @Override
    public synchronized void complete(String id, byte[] digest, int status, byte[] body, Duration window,
                                      List<ObjectNode> receipts) {
        long now = clock.millis();
        long until = now + window.toMillis();
        ObjectNode line = Json.object();
        line.put("id", id);
        line.put("digest", Base64.getEncoder().encodeToString(digest));
        line.put("status", status);
        line.put("body", Base64.getEncoder().encodeToString(body));
        line.put("until", until);
        if (!receipts.isEmpty()) {
            receipts.forEach(line.putArray("needs")::add);
        }
        if (now - openedAt >= ROLL.toMillis()) {
            roll(now);
        }
        file.append(Json.bytes(line), fsync == FsyncPolicy.ALWAYS);
        lastUntil = Math.max(lastUntil, until);
        put(id, new Entry(new Held(digest, status, body), until));
    }

    @Override
    public synchronized void release(String id) {
        Entry e = entries.get(id);
        if (e != null && e.held().running()) {
            bytes -= e.bytes();
            entries.remove(id);
        }
    }

    /**
     * Forces the answers written so far, once {@code logSync} has forced the decision log as far
     * as it was written: an answer never reaches the disk ahead of the change it answers. The
     * state's timer calls it every second under {@code --fsync interval}.
     */
    public void forceAfter(Runnable logSync) {
        if (fsync != FsyncPolicy.INTERVAL) {
            return;
        }
        logSync.run();
        synchronized (this) {
            try {
                file.force();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot force the idempotency answers " + file.path(), e);
            }
        }
    }

    @Override
    public synchronized void close() {
        try {
            file.close();
        } catch (IOException e) {
            LOG.error("idempotency answers could not be closed cleanly: {}", e.toString());
        }
    }

    synchronized int size() {
        return entries.size();
    }

    private void put(String id, Entry e) {
        Entry old = entries.remove(id);
        if (old != null) {
            bytes -= old.bytes();
        }
        entries.put(id, e);
        bytes += e.bytes();
        long now = clock.millis();
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Entry head = it.next().getValue();
            if (head.until() > now && bytes <= MAX_BYTES) {
                break;
            }
            bytes -= head.bytes();
            it.remove();
        }
    }

    /** A new file (registered first); a rolled one is deleted once its answers are spent. */
    private void roll(long now) {
        try {
            if (file != null) {
                file.close();
                rolled.add(Map.entry(file.path(), lastUntil));
            }
            for (Iterator<Map.Entry<Path, Long>> it = rolled.iterator(); it.hasNext(); ) {
                Map.Entry<Path, Long> spent = it.next();
                if (spent.getValue() <= now) {
                    writing.registry().removing(spent.getKey());
                    Files.deleteIfExists(spent.getKey());
                    it.remove();
                }
            }
            lastUntil = 0;
            Path next = dir.resolve("answers-" + now + ".jsonl");
            writing.registry().adding(next);
            file = RecordFile.open(next, writing.disk(), writing.storage(), false);
            openedAt = now;
        } catch (IOException e) {
            writing.storage().failed(dir.resolve("answers"), e);
            throw writing.storage().refuse();
        }
    }

    /** Reads one file's answers still within their window and whose needs hold: {kept, dropped}. */
    private int[] read(Path f, long now, Predicate<JsonNode> present) throws IOException {
        int kept = 0;
        int dropped = 0;
        boolean legacy = writing.legacy().test(f);
        String bad = null;
        try (LineReader r = new LineReader(Files.newInputStream(f))) {
            while (r.next()) {
                JsonNode n = r.terminated() ? StateReading.parse(r.bytes(), r.length(), legacy) : null;
                if (n == null) {
                    bad = bad != null ? bad : "line " + r.number() + " (byte " + r.offset() + ")";
                    continue;
                }
                if (bad != null) {
                    throw StateReading.corrupt(f, bad);
                }
                long until = n.path("until").asLong();
                if (until <= now) {
                    continue;
                }
                boolean whole = true;
                for (JsonNode need : n.path("needs")) {
                    whole &= present.test(need);
                }
                if (!whole) {
                    dropped++;
                    continue;
                }
                Base64.Decoder b64 = Base64.getDecoder();
                put(n.path("id").asText(), new Entry(new Held(b64.decode(n.path("digest").asText()), n.path("status").asInt(),
                        b64.decode(n.path("body").asText())), until));
                kept++;
            }
        }
        return new int[] {kept, dropped};
    }
}
