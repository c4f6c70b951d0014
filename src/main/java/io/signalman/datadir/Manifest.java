package io.signalman.datadir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * {@code DATA/manifest.json}: every file of a data directory, with a sequence number in the order
 * it was created and, once complete, its length and CRC32C. A start compares it with what is on
 * disk, so a deleted log file, snapshot or journal, or a file from another directory, is named and
 * refused instead of silently rolling state back ({@link DataDir}). One sealed JSON line, replaced
 * atomically (written beside, forced, renamed, the folder forced) at every change of the file set:
 * a file is listed before it is created and unlisted before it is deleted, so the manifest is
 * never behind the disk in a way a crash could hide. It also records the audit log's length and head
 * ({@link LogHead}), written after each entry, so that a log cut short or deleted is named too.
 * Longer than most classes here: the format is read, written and changed in one place, so that
 * what a start compares is exactly what a writer recorded.
 */
public final class Manifest implements FileRegistry {

    /** The data directory format this version writes: 2 (1 had no manifest and no checksums). */
    public static final int FORMAT = 2;
    public static final String NAME = "manifest.json";

    /**
     * One file: its sequence number; its length and checksum once complete (else null: still
     * appended to, or left open by a crash); {@code legacy}: written by format 1, without checksums.
     */
    public record Entry(long seq, Long bytes, Integer crc, boolean legacy) {
        public boolean closed() {
            return bytes != null;
        }
    }

    private final Path data;
    private final String dataId;
    private final Map<String, Entry> files;
    private final Map<String, LogHead> heads;
    private long nextSeq;
    /** Made by this start for a directory that held nothing ({@link FileRegistry#created()}); never written down. */
    private boolean created;

    private Manifest(Path data, String dataId, Map<String, Entry> files, Map<String, LogHead> heads, long nextSeq) {
        this.data = data;
        this.dataId = dataId;
        this.files = files;
        this.heads = heads;
        this.nextSeq = nextSeq;
    }

    /** A new, empty manifest for {@code data} (not yet written). */
    static Manifest fresh(Path data) {
        return new Manifest(data, UUID.randomUUID().toString(), new LinkedHashMap<>(), new LinkedHashMap<>(), 1);
    }

    /** A new, empty manifest for {@code data}, which held nothing of ours: this start creates the directory. */
    static Manifest created(Path data) {
        Manifest m = fresh(data);
        m.created = true;
        return m;
    }

    @Override
    public boolean created() {
        return created;
    }

    /**
     * {@code DATA/manifest.json} as it is on disk, for a reader that does not own the directory
     * ({@code signalman audit verify}), or null when there is none. Never written through.
     */
    public static Manifest existing(Path data) throws IOException {
        return Files.exists(data.resolve(NAME)) ? read(data) : null;
    }

    /** Reads {@code DATA/manifest.json}; a manifest that does not check is refused. */
    static Manifest read(Path data) throws IOException {
        Path f = data.resolve(NAME);
        byte[] b = Files.readAllBytes(f);
        int len = b.length > 0 && b[b.length - 1] == '\n' ? b.length - 1 : b.length;
        if (RecordLine.check(b, 0, len) != RecordLine.Check.SEALED) {
            throw new DataDirRefused(f + " is corrupt (its checksum does not match): restore it from a backup, or remove it and "
                    + "start with --accept-data-loss to list the files present as they are");
        }
        JsonNode n = Json.MAPPER.readTree(b, 0, len);
        int format = n.path("format").asInt();
        if (format != FORMAT) {
            throw new DataDirRefused(f + " is of format " + format + ", which this version of Signalman does not know "
                    + "(it reads " + FORMAT + " and upgrades 1): run the version that wrote it");
        }
        Map<String, Entry> files = new LinkedHashMap<>();
        n.path("files").fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            files.put(e.getKey(), new Entry(v.path("seq").asLong(), v.hasNonNull("bytes") ? v.get("bytes").asLong() : null,
                    v.hasNonNull("crc32c") ? (int) Long.parseLong(v.get("crc32c").asText(), 16) : null,
                    v.path("legacy").asBoolean(false)));
        });
        // Written by this version on: a manifest of the version before has none, and gains it at its next write.
        Map<String, LogHead> heads = new LinkedHashMap<>();
        n.path("heads").fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            heads.put(e.getKey(), new LogHead(v.path("entries").asLong(), v.path("head").asText(null),
                    v.path("key").asText(null), v.path("mac").asText(null)));
        });
        return new Manifest(data, n.path("data_id").asText(), files, heads, n.path("next_seq").asLong(1));
    }

    @Override
    public String dataId() {
        return dataId;
    }

    @Override
    public synchronized LogHead head(String name) {
        return heads.get(name);
    }

    @Override
    public synchronized void head(String name, LogHead head) throws IOException {
        LogHead before = heads.put(name, head);
        try {
            write();
        } catch (IOException | RuntimeException e) {
            if (before == null) {
                heads.remove(name);
            } else {
                heads.put(name, before);
            }
            throw e;
        }
    }

    /** Every file listed, by its path relative to the data directory ({@code decisions/...}, {@code state/...}). */
    public synchronized Map<String, Entry> files() {
        return new LinkedHashMap<>(files);
    }

    /** Whether {@code file} was written before checksums (its lines are not sealed). */
    public synchronized boolean legacy(Path file) {
        Entry e = files.get(relative(file));
        return e != null && e.legacy();
    }

    @Override
    public synchronized void adding(Path file) throws IOException {
        change(() -> files.put(relative(file), new Entry(nextSeq++, null, null, false)));
    }

    @Override
    public synchronized void closed(Path file, long bytes, int crc) throws IOException {
        change(() -> {
            String key = relative(file);
            Entry e = files.get(key);
            files.put(key, new Entry(e == null ? nextSeq++ : e.seq(), bytes, crc, e != null && e.legacy()));
        });
    }

    @Override
    public synchronized void replaced(Path from, Path to, long bytes, int crc) throws IOException {
        change(() -> {
            Entry e = files.remove(relative(from));
            files.put(relative(to), new Entry(e == null ? nextSeq++ : e.seq(), bytes, crc, e != null && e.legacy()));
        });
    }

    @Override
    public synchronized void removing(Path file) throws IOException {
        if (files.containsKey(relative(file))) {
            change(() -> files.remove(relative(file)));
        }
    }

    /**
     * Makes a change and writes it; when the write fails (a full disk) the change is undone, so
     * that what the manifest holds in memory is what it says on disk, and a later write never
     * lists a file whose creation failed with it.
     */
    private void change(Runnable mutation) throws IOException {
        Map<String, Entry> before = new LinkedHashMap<>(files);
        long seq = nextSeq;
        mutation.run();
        try {
            write();
        } catch (IOException | RuntimeException e) {
            files.clear();
            files.putAll(before);
            nextSeq = seq;
            throw e;
        }
    }

    /** Lists a file found on disk (an upgrade, or files accepted as they are). */
    synchronized void list(String relative, Long bytes, Integer crc, boolean legacy) {
        files.put(relative, new Entry(nextSeq++, bytes, crc, legacy));
    }

    /** Unlists a file without touching the disk (a loss accepted, a file set aside). */
    synchronized void unlist(String relative) {
        files.remove(relative);
    }

    /** Writes the manifest: beside it, forced, renamed into place, the folder forced. */
    synchronized void write() throws IOException {
        ObjectNode n = Json.object();
        n.put("format", FORMAT);
        n.put("data_id", dataId);
        n.put("written_at", Instant.now().toString());
        n.put("next_seq", nextSeq);
        ObjectNode list = n.putObject("files");
        files.forEach((path, e) -> {
            ObjectNode f = list.putObject(path);
            f.put("seq", e.seq());
            if (e.closed()) {
                f.put("bytes", e.bytes());
                f.put("crc32c", String.format("%08x", e.crc()));
            }
            if (e.legacy()) {
                f.put("legacy", true);
            }
        });
        if (!heads.isEmpty()) {
            ObjectNode h = n.putObject("heads");
            heads.forEach((name, head) -> {
                ObjectNode o = h.putObject(name).put("entries", head.entries()).put("head", head.head());
                if (head.keyed()) {
                    o.put("key", head.key()).put("mac", head.mac());
                }
            });
        }
        Path tmp = data.resolve(NAME + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(RecordLine.seal(Json.bytes(n)));
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(tmp, data.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceFolder(data);
    }

    /** {@code file} relative to the data directory, with forward slashes. */
    String relative(Path file) {
        return data.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    /** Forces a folder's entries (a rename, a new file) to disk; a platform that cannot is left as it is. */
    static void forceFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Not every platform opens a folder for reading (Windows): its renames are then as durable as it makes them.
        }
    }
}
