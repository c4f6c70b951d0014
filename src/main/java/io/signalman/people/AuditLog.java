package io.signalman.people;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Gzip;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The audit log, {@code <data>/audit.jsonl}: one sealed record per thing people did to the rules
 * and to each other (an approval, a rejection, an activation, an emergency rollback, a reload, a
 * user added, a token rotated, ...), each with who, when, the content hashes it was about and the
 * note, appended and forced to disk before the act is answered, as the decision log is. Each entry
 * carries {@code prev}, the SHA-256 of the entry before it as written (the first: null), so
 * changing, removing or reordering any entry breaks the chain after it ({@link AuditVerify}).
 * At {@link #ROLL_BYTES} the file is rolled: compressed into {@code <data>/audit/audit-N.jsonl.gz}
 * and kept, as rolled decision-log files are; the chain runs on across files.
 *
 * <p>All entries are kept in memory too (they are few: people act, services decide), for the
 * approvals and every rule's history. Methods block on the disk: call them on a worker.
 */
public final class AuditLog {

    public static final String FILE = "audit.jsonl";
    public static final String ROLLED = "audit";
    public static final long ROLL_BYTES = 64L * 1024 * 1024;
    private static final Pattern ROLLED_NAME = Pattern.compile("audit-(\\d{6,})\\.jsonl\\.gz");

    private final Path data;
    private final Path file;
    private final Writing writing;
    private final long rollBytes;
    private final List<JsonNode> entries = new ArrayList<>();
    private String head;
    private RecordFile out;

    private AuditLog(Path data, Writing writing, long rollBytes) {
        this.data = data;
        this.file = data.resolve(FILE);
        this.writing = writing;
        this.rollBytes = rollBytes;
    }

    /** Reads every entry of {@code data}'s audit log (rolled files included). Blocking; at start. */
    public static AuditLog open(Path data, Writing writing, long rollBytes) {
        AuditLog log = new AuditLog(data, writing, rollBytes);
        try {
            for (Path p : files(data)) {
                try (InputStream in = input(p)) {
                    RecordFiles.lines(in, p.toString(), line -> {
                        log.entries.add(RecordFiles.json(line));
                        log.head = hash(line);
                    });
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log in " + data + ": " + e.getMessage(), e);
        }
        return log;
    }

    /**
     * Appends one entry: {@code seq}, {@code at}, {@code user}, {@code via} (how they proved who
     * they are), {@code action}, then {@code fields}, then {@code prev}. Sealed and forced before
     * it returns; returns the entry as written.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refuses it: nothing was recorded
     */
    public synchronized JsonNode append(Principal who, String action, ObjectNode fields) {
        ObjectNode e = Json.object();
        e.put("seq", entries.size() + 1);
        e.put("at", Instant.now().toString());
        e.put("user", who.name());
        e.put("via", who.how());
        e.put("action", action);
        if (fields != null) {
            e.setAll(fields.deepCopy());
        }
        e.put("prev", head);
        byte[] bytes = Json.bytes(e);
        try {
            if (out != null && out.length() >= rollBytes) {
                roll();
            }
            if (out == null) {
                out = RecordFiles.open(file, writing);
            }
        } catch (IOException x) {
            throw new UncheckedIOException("cannot open " + file, x);
        }
        out.append(bytes, true);
        head = hash(bytes);
        entries.add(e);
        return e;
    }

    /** Every entry, oldest first (read-only). */
    public synchronized List<JsonNode> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries));
    }

    /** The hash of the newest entry (what the next one's {@code prev} will be), or null when there is none. */
    public synchronized String head() {
        return head;
    }

    /** Forces and closes the current file. */
    public synchronized void close() {
        RecordFiles.close(out, file);
        out = null;
    }

    /** The current file is closed and compressed into the next {@code audit/audit-N.jsonl.gz}; the next entry starts a new one. */
    private void roll() throws IOException {
        out.close();
        out = null;
        Path dir = data.resolve(ROLLED);
        Files.createDirectories(dir);
        long next = rolled(data).stream().mapToLong(AuditLog::number).max().orElse(0) + 1;
        Gzip.compress(file, dir.resolve(String.format("audit-%06d.jsonl.gz", next)), writing.registry());
    }

    /** The SHA-256 of an entry as written (its JSON without the checksum field): what the next entry's {@code prev} holds. */
    public static String hash(byte[] entry) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(entry));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The audit log's files in writing order: the rolled ones by number, then {@code audit.jsonl}. */
    static List<Path> files(Path data) throws IOException {
        List<Path> out = new ArrayList<>(rolled(data));
        out.sort(java.util.Comparator.comparingLong(AuditLog::number));
        if (Files.isRegularFile(data.resolve(FILE))) {
            out.add(data.resolve(FILE));
        }
        return out;
    }

    private static List<Path> rolled(Path data) throws IOException {
        Path dir = data.resolve(ROLLED);
        if (!Files.isDirectory(dir)) {
            return new ArrayList<>();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.filter(p -> ROLLED_NAME.matcher(p.getFileName().toString()).matches()).toList());
        }
    }

    private static long number(Path p) {
        Matcher m = ROLLED_NAME.matcher(p.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    static InputStream input(Path p) throws IOException {
        InputStream raw = Files.newInputStream(p);
        return p.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
    }
}
