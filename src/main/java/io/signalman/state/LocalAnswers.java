package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single node's idempotency answers that survive a restart (SPEC 8, issue 16): a retry after a
 * restart, within the window, gets the first answer byte for byte and changes nothing. Claims
 * live in memory only (a claim dies with its process, as the request does); an answer is appended
 * to {@code DATA/state/answers-N.jsonl} before the client hears it (forced with
 * {@code --fsync always}). A file is rolled every {@link #ROLL}, and deleted once every answer in it
 * is past its window. Bounded in memory like the node's own map ({@link #MAX_BYTES}, oldest first).
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
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    private long bytes;
    private AppendFile file;
    /** Files rolled in this run, with the end of the last window they hold: deleted once past it. */
    private final java.util.List<Map.Entry<Path, Long>> rolled = new java.util.ArrayList<>();
    private long openedAt;
    private long lastUntil;

    private LocalAnswers(Path dir, FsyncPolicy fsync, Clock clock) {
        this.dir = dir;
        this.fsync = fsync;
        this.clock = clock;
    }

    /** Reads the answers still within their window, deletes spent files, opens a new one. Blocking. */
    public static LocalAnswers open(Path dir, FsyncPolicy fsync, Clock clock) {
        LocalAnswers a = new LocalAnswers(dir, fsync, clock);
        try {
            Files.createDirectories(dir);
            long now = clock.millis();
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.getFileName().toString().matches("answers-\\d+\\.jsonl")).sorted().toList()) {
                    if (a.read(f, now) == 0) {
                        Files.delete(f);
                    }
                }
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
    public synchronized void complete(String id, byte[] digest, int status, byte[] body, Duration window) {
        long now = clock.millis();
        long until = now + window.toMillis();
        ObjectNode line = Json.object();
        line.put("id", id);
        line.put("digest", Base64.getEncoder().encodeToString(digest));
        line.put("status", status);
        line.put("body", Base64.getEncoder().encodeToString(body));
        line.put("until", until);
        if (now - openedAt >= ROLL.toMillis()) {
            roll(now);
        }
        write(line);
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

    private void write(ObjectNode line) {
        try {
            file.appendLine(Json.bytes(line), fsync == FsyncPolicy.ALWAYS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write an idempotency answer", e);
        }
    }

    /** A new file; the previous one is deleted at a later start once its answers are spent. */
    private void roll(long now) {
        try {
            if (file != null) {
                file.close();
                rolled.add(Map.entry(file.path(), lastUntil));
            }
            for (Iterator<Map.Entry<Path, Long>> it = rolled.iterator(); it.hasNext(); ) {
                Map.Entry<Path, Long> spent = it.next();
                if (spent.getValue() <= now) {
                    Files.deleteIfExists(spent.getKey());
                    it.remove();
                }
            }
            lastUntil = 0;
            file = new AppendFile(dir.resolve("answers-" + now + ".jsonl"));
            openedAt = now;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open an idempotency answers file in " + dir, e);
        }
    }

    /** Reads one file's answers still within their window; returns how many. */
    private int read(Path f, long now) throws IOException {
        int kept = 0;
        try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line);
                } catch (IOException e) {
                    continue; // a write cut short by a crash: its request was never answered
                }
                long until = n.path("until").asLong();
                if (until <= now) {
                    continue;
                }
                Base64.Decoder b64 = Base64.getDecoder();
                put(n.path("id").asText(), new Entry(new Held(b64.decode(n.path("digest").asText()), n.path("status").asInt(),
                        b64.decode(n.path("body").asText())), until));
                kept++;
            }
        }
        return kept;
    }
}
