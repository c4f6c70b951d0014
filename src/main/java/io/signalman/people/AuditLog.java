package io.signalman.people;

import io.signalman.control.Journal;
import io.signalman.control.RecordFiles;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.DataDirRefused;
import io.signalman.datadir.Gzip;
import io.signalman.datadir.LogHead;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log, {@code <data>/audit.jsonl}: one sealed record per thing people did to the rules
 * and to each other (an approval, a rejection, an activation, an emergency rollback, a reload, a
 * user added, a token rotated, ...), each with who, when, the content hashes it was about and the
 * note, appended and forced to disk before the act is answered, as the decision log is. Each entry
 * carries {@code prev}, the chain value of the entry before it (the first: null), so changing,
 * removing or reordering any entry breaks the chain after it ({@link AuditVerify}). With a key
 * ({@link AuditKey}) each entry also carries the key's id and its own HMAC ({@link AuditSeal}),
 * which is its chain value; without one the chain value is the entry's SHA-256, which anyone who
 * can write the file can recompute. A log is keyed from its first entry when a start with a key
 * creates the data directory, or from the point {@code signalman audit key} marks with an
 * {@code audit_keyed} entry ({@link #key}), and stays keyed: a start with a key refuses a log that is not. After each entry the manifest
 * records the log's length and head, so a log cut short or deleted is named at the next start.
 * At {@link #ROLL_BYTES} the file is rolled: compressed into {@code <data>/audit/audit-N.jsonl.gz}
 * and kept, as rolled decision-log files are; the chain runs on across files.
 *
 * <p>Opening it proves it first: a log {@link AuditVerify} rejects is refused, as a damaged
 * decision file is, unless the loss is accepted ({@link AuditRepair}); so every entry held is one
 * that verified. All entries are kept in memory too (they are few: people act, services decide),
 * for the approvals and every rule's history. Methods block on the disk: call them on a worker.
 */
public final class AuditLog {

    public static final String FILE = "audit.jsonl";
    public static final String ROLLED = "audit";
    public static final long ROLL_BYTES = 64L * 1024 * 1024;
    /** Who writes what a start itself records: the point keying began, a loss accepted. */
    static final Principal START = new Principal("signalman", EnumSet.noneOf(Role.class), "start");
    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    private final Path data;
    private final Path file;
    private final Writing writing;
    private final long rollBytes;
    private final AuditKey key;
    private final List<JsonNode> entries = new ArrayList<>();
    private String head;
    private RecordFile out;
    /** The cluster's audit journal, or null: this node's files. */
    private Journal shared;
    /** In a cluster, the member that writes an entry (its cluster address), recorded in it. */
    private String node;
    /** Entries of the cluster's log that did not prove (link, key, MAC) when read: never counted as acts. */
    private final java.util.Set<Long> forged = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Told of every entry, this node's and (in a cluster) every other member's, in order. */
    private final List<Consumer<JsonNode>> listeners = new CopyOnWriteArrayList<>();

    private AuditLog(Path data, Writing writing, long rollBytes, AuditKey key) {
        this.data = data;
        this.file = data.resolve(FILE);
        this.writing = writing;
        this.rollBytes = rollBytes;
        this.key = key;
    }

    /** An unkeyed log, whose damage is refused: for tests and tools. */
    public static AuditLog open(Path data, Writing writing, long rollBytes) {
        return open(data, writing, rollBytes, null, false);
    }

    /**
     * Proves and reads every entry of {@code data}'s audit log (rolled files included). With a key,
     * the log must be keyed already (or this start created the directory, whose log is then keyed
     * from its first entry): keying an unkeyed log is {@link #key}'s act, never a start's. Blocking; at start.
     *
     * @param key        the audit key, or null: the log then guards against accidents only
     * @param acceptLoss {@code --accept-data-loss}: a log that does not verify is cut before its
     *                   first bad entry (the rest set aside) and the loss is recorded in it
     * @throws DataDirRefused when the log does not verify (naming the file and line at fault) and
     *                        the loss is not accepted, when it is keyed and the key is missing or another, or
     *                        when a key is given and it is not keyed
     */
    public static AuditLog open(Path data, Writing writing, long rollBytes, AuditKey key, boolean acceptLoss) {
        AuditLog log = new AuditLog(data, writing, rollBytes, key);
        try {
            AuditVerify.Report r = AuditVerify.check(data, key, writing.registry(), log.entries::add);
            Path aside = null;
            if (!r.ok()) {
                if (r.keyProblem() != null || !acceptLoss) {
                    throw new DataDirRefused(AuditRepair.refusal(data, r));
                }
                aside = r.firstBreak() == null ? null : AuditRepair.cut(data, writing, r.firstBreak());
                r.problems().forEach(p -> LOG.error("audit log in {}: accepting the loss (--accept-data-loss): {}", data, p));
            }
            log.head = r.verifiedHead();
            log.keyRecord();
            if (!r.ok()) {
                log.append(START, "audit_loss_accepted", AuditRepair.lossEntry(r, data, aside));
            }
            log.recordHead();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log in " + data + ": " + e.getMessage(), e);
        }
        return log;
    }

    /**
     * Keys the unkeyed audit log of {@code data} with {@code key} from its next entry on: {@code
     * signalman audit key}, with the server stopped. The log must verify as it is; an entry
     * {@code audit_keyed} marks the point (its {@code prev} chains the unkeyed entries into the keyed
     * ones) and the manifest's record of the log becomes keyed. A start never does this by itself:
     * nothing in the directory tells a log never keyed from a keyed one stripped of its MACs, so
     * the operator who keys it says which it is. Blocking.
     *
     * @param who who keys it, recorded in the entry
     * @return the entries the log held before, all unkeyed, and their head: to compare with a copy kept elsewhere
     * @throws DataDirRefused when the log is keyed already, or does not verify
     */
    public static Keyed key(Path data, Writing writing, long rollBytes, AuditKey key, Principal who) {
        AuditLog log = new AuditLog(data, writing, rollBytes, key);
        try {
            AuditVerify.Report r = AuditVerify.check(data, null, writing.registry(), log.entries::add);
            if (r.keyedFrom() > 0 || r.keyProblem() != null) {
                throw new DataDirRefused("the audit log in " + data + " is keyed already" + (r.keyedFrom() > 0
                        ? " from entry " + r.keyedFrom() + " on" : " (says the manifest's record of it)")
                        + ": it is keyed once, and stays keyed");
            }
            if (!r.ok()) {
                throw new DataDirRefused(AuditRepair.refusal(data, r));
            }
            log.head = r.verifiedHead();
            long before = log.entries.size();
            log.keyRecord();
            log.append(who, "audit_keyed", Json.object().put("entries_before", before).put("head_before", log.head)
                    .put("note", "entries from here on carry an HMAC-SHA256 under key " + key.id() + "; the " + before
                            + " before are chained, not keyed"));
            log.close();
            LOG.info("audit log in {}: keyed from entry {} on (key id {})", data, before + 1, key.id());
            return new Keyed(before, r.verifiedHead(), before + 1, key.id());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log in " + data + ": " + e.getMessage(), e);
        }
    }

    /** What keying found and did: {@code before} unkeyed entries ending at {@code headBefore}; keyed from {@code from}. */
    public record Keyed(long before, String headBefore, long from, String keyId) {
    }

    /**
     * The cluster's audit log: one chain for every member, in {@code journal}. An append takes the
     * next entry number by compare-and-set on the chain's head ({@link Journal#append}), so entries
     * from every node form one sequence with no forks; each carries the HMAC under {@code key}
     * (every member must be given the same key file). Entries other members append are read as
     * they come and handed to the listeners. Blocking; at start.
     */
    public static AuditLog openShared(Path data, Journal journal, AuditKey key, String node) {
        AuditLog log = new AuditLog(data, Writing.plain(), ROLL_BYTES, key);
        log.shared = journal;
        log.node = node;
        log.catchUp();
        journal.onAppend(log::catchUp);
        if (key != null && (log.entries.isEmpty() || !log.entries.get(log.entries.size() - 1).has("key"))) {
            try {
                log.append(START, "audit_keyed", Json.object().put("note", "entries from here on carry an HMAC-SHA256 under key "
                        + key.id()));
            } catch (io.signalman.control.QuorumLost e) {
                // Every entry this node appends is keyed anyway; the marker is written by the next start with a quorum.
                LOG.warn("the cluster's audit log: no quorum to mark where keying began; entries from here on are keyed");
            }
        }
        return log;
    }

    /** Takes in the entries other members appended since the last look, checking each links to the one before. */
    private void catchUp() {
        List<JsonNode> fresh = new ArrayList<>();
        synchronized (this) {
            for (String s; (s = shared.get(entries.size() + 1)) != null; ) {
                byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                JsonNode e = RecordFiles.json(bytes);
                String prev = e == null || e.path("prev").isNull() ? null : e.path("prev").asText(null);
                String problem = e == null ? "is not JSON" : !java.util.Objects.equals(prev, head) ? "does not link to the one before it"
                        : key == null ? null : !key.id().equals(e.path("key").asText(null)) ? "is not keyed with this member's key"
                        : !key.mac(AuditSeal.body(bytes)).equals(AuditSeal.mac(bytes)) ? "carries a MAC that does not match" : null;
                if (problem != null) {
                    // Kept in its place (the chain is one sequence), but never counted as anyone's act.
                    forged.add((long) entries.size() + 1);
                    LOG.error("the cluster's audit log: entry {} {}: it counts as no one's act (no approval); audit verify names "
                            + "the break", entries.size() + 1, problem);
                }
                head = AuditSeal.link(bytes);
                JsonNode held = e == null ? Json.object() : e;
                entries.add(held);
                fresh.add(held);
            }
        }
        fresh.forEach(e -> listeners.forEach(l -> l.accept(e)));
    }

    /** {@code listener} is told of every entry from now on, in order: this node's and every other member's. */
    public void onEntry(Consumer<JsonNode> listener) {
        listeners.add(listener);
    }

    /** Whether this is the cluster's log. */
    public boolean shared() {
        return shared != null;
    }

    /**
     * Appends one entry: {@code seq}, {@code at}, {@code user}, {@code via} (how they proved who
     * they are), {@code action}, then {@code fields}, then {@code prev}. Sealed and forced before
     * it returns; returns the entry as written.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refuses it: nothing was recorded
     */
    public JsonNode append(Principal who, String action, ObjectNode fields) {
        if (shared == null) {
            JsonNode e = appendHere(who, action, fields);
            listeners.forEach(l -> l.accept(e));
            return e;
        }
        for (int attempt = 0; attempt < 1000; attempt++) {
            catchUp();
            long seq;
            byte[] bytes;
            synchronized (this) {
                seq = entries.size() + 1;
                bytes = entry(seq, who, action, fields);
            }
            if (shared.append(seq, new String(bytes, StandardCharsets.UTF_8))) {
                catchUp();
                synchronized (this) {
                    return entries.get((int) seq - 1);
                }
            }
        }
        throw new IllegalStateException("the cluster's audit log took no entry in 1000 attempts");
    }

    /** The entry {@code seq} as written: its fields, {@code prev} the head now, sealed with the key when there is one. */
    private byte[] entry(long seq, Principal who, String action, ObjectNode fields) {
        ObjectNode e = Json.object();
        e.put("seq", seq);
        e.put("at", Instant.now().toString());
        e.put("user", who.name());
        e.put("via", who.how());
        e.put("action", action);
        if (node != null) {
            e.put("node", node);
        }
        if (fields != null) {
            e.setAll(fields.deepCopy());
            e.remove(List.of("key", "mac"));
        }
        e.put("prev", head);
        if (key != null) {
            e.put("key", key.id());
        }
        return key == null ? Json.bytes(e) : AuditSeal.seal(Json.bytes(e), key);
    }

    private synchronized JsonNode appendHere(Principal who, String action, ObjectNode fields) {
        byte[] bytes = entry(entries.size() + 1, who, action, fields);
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
        head = AuditSeal.link(bytes);
        JsonNode e = RecordFiles.json(bytes);
        entries.add(e);
        try {
            recordHead();
        } catch (IOException | RuntimeException x) {
            // The entry is on disk and stands: the log is ahead of its record, which the next entry or start brings forward.
            LOG.warn("audit log in {}: entry {} is written, but the manifest's record of the log is not: {}", data,
                    entries.size(), x.getMessage());
        }
        return e;
    }

    /**
     * Whether {@code e} (an entry of this log, so one that verified) may count as someone's act,
     * an approval say: with a key, only a keyed entry does. An unkeyed entry before the point keying
     * began is chained into the keyed ones, but a log cut back to its unkeyed part (the manifest's
     * record removed with it) would verify with forged unkeyed entries in it.
     */
    public boolean counts(JsonNode e) {
        return (key == null || e.has("key")) && !forged.contains(e.path("seq").asLong());
    }

    /**
     * With a key, makes the manifest's record of the log keyed as it stands (the same count and
     * head, or the log as read when there is none), before the first keyed entry is written. An
     * unkeyed record beside keyed entries is then never a crash's, always a rewrite; and a record
     * that says more than a log cut by an accepted loss still says so until the loss is recorded.
     */
    private void keyRecord() throws IOException {
        String dataId = writing.registry().dataId();
        LogHead now = dataId == null ? null : writing.registry().head(AuditVerify.LOG);
        if (key != null && dataId != null && (now == null || !now.keyed())) {
            writing.registry().head(AuditVerify.LOG, now == null ? key.head(dataId, AuditVerify.LOG, entries.size(), head)
                    : key.head(dataId, AuditVerify.LOG, now.entries(), now.head()));
        }
    }

    /** Tells the manifest how long the log is and what its head is now (after the entry is on disk). */
    private void recordHead() throws IOException {
        String dataId = writing.registry().dataId();
        if (dataId != null) {
            writing.registry().head(AuditVerify.LOG, key == null ? new LogHead(entries.size(), head, null, null)
                    : key.head(dataId, AuditVerify.LOG, entries.size(), head));
        }
    }

    /** Every entry, oldest first (read-only). */
    public synchronized List<JsonNode> entries() {
        return Collections.unmodifiableList(new ArrayList<>(entries));
    }

    /** The chain value of the newest entry (what the next one's {@code prev} will be), or null when there is none. */
    public synchronized String head() {
        return head;
    }

    /** Forces and closes the current file (the cluster's log stays). */
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
        long next = AuditFiles.lastRolled(data) + 1;
        Gzip.compress(file, dir.resolve(String.format("audit-%06d.jsonl.gz", next)), writing.registry());
    }

    /** The SHA-256 of an entry as written (its JSON without the checksum field): an unkeyed entry's chain value. */
    public static String hash(byte[] entry) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(entry));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
