package io.signalman.people;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.RecordLine;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What someone who can write the data directory, but has no key, does to the audit log with
 * twenty lines of Python: reads the entries, changes, drops or reorders them, then re-seals the
 * rest with the unkeyed algorithm (each {@code prev} the SHA-256 of the entry before, each line's
 * CRC32C) and writes the file back. Tests use it to show each forgery is caught with a key, and,
 * on an unkeyed log, that it is a real forgery (it passes there).
 */
public final class AuditForger {

    private final Path file;
    private final List<ObjectNode> entries = new ArrayList<>();

    private AuditForger(Path file) {
        this.file = file;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                byte[] b = line.getBytes(StandardCharsets.UTF_8);
                entries.add((ObjectNode) Json.MAPPER.readTree(RecordLine.unseal(b, 0, b.length)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The audit log of {@code data}, read to be forged. */
    public static AuditForger of(Path data) {
        return new AuditForger(data.resolve(AuditLog.FILE));
    }

    /** The entries, oldest first, to change in place. */
    public List<ObjectNode> entries() {
        return entries;
    }

    /** Swaps two entries (0-based) as they are. */
    public AuditForger swap(int a, int b) {
        Collections.swap(entries, a, b);
        return this;
    }

    /** Writes the entries back as they are now, every line re-chained and re-sealed; {@code renumber}: seq 1, 2, ... again. */
    public void reseal(boolean renumber) {
        StringBuilder out = new StringBuilder();
        String prev = null;
        for (int i = 0; i < entries.size(); i++) {
            ObjectNode e = entries.get(i);
            if (renumber) {
                e.put("seq", i + 1);
            }
            e.put("prev", prev);
            byte[] bytes = Json.bytes(e);
            prev = AuditLog.hash(bytes);
            out.append(new String(RecordLine.seal(bytes), StandardCharsets.UTF_8));
        }
        try {
            Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Rewrites the manifest's record of the log to match the log as it is now (its entry count, and
     * the chain value of its last entry, computed as a verifier would), and unlists the log's file
     * when it is gone, then re-seals the manifest: all an attacker can do there without the key.
     * A keyed record's MAC needs the key, so it is left as it was.
     */
    public static void matchManifest(Path data) {
        rewriteManifest(data, Record.KEEP_KEY);
    }

    /**
     * What the attacker does to the manifest when the log was downgraded: its record of the log
     * made to match the log and unkeyed (its key id and MAC taken off), or removed altogether, as if
     * the log had never been keyed, or never recorded.
     */
    public static void downgradeManifest(Path data, boolean removeRecord) {
        rewriteManifest(data, removeRecord ? Record.REMOVE : Record.UNKEY);
    }

    /** The attacker downgrades a keyed log: every key id and MAC taken off, re-chained and re-sealed unkeyed. */
    public AuditForger unkey() {
        entries.forEach(e -> e.remove(List.of("key", "mac")));
        return this;
    }

    private enum Record { KEEP_KEY, UNKEY, REMOVE }

    private static void rewriteManifest(Path data, Record how) {
        try {
            Path manifest = data.resolve(io.signalman.datadir.Manifest.NAME);
            byte[] b = Files.readAllBytes(manifest);
            ObjectNode m = (ObjectNode) Json.MAPPER.readTree(RecordLine.unseal(b, 0, b.length - 1));
            Path log = data.resolve(AuditLog.FILE);
            long entries = 0;
            String head = null;
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    byte[] l = line.getBytes(StandardCharsets.UTF_8);
                    entries++;
                    head = AuditSeal.link(RecordLine.unseal(l, 0, l.length));
                }
            } else {
                ((ObjectNode) m.get("files")).remove(AuditLog.FILE);
            }
            ObjectNode heads = (ObjectNode) m.get("heads");
            if (how == Record.REMOVE) {
                heads.remove(AuditVerify.LOG);
            } else {
                ObjectNode record = ((ObjectNode) heads.get(AuditVerify.LOG)).put("entries", entries).put("head", head);
                if (how == Record.UNKEY) {
                    record.remove(List.of("key", "mac"));
                }
            }
            Files.write(manifest, RecordLine.seal(Json.bytes(m)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A fresh key in {@code file} (outside any data directory), readable by its owner alone: 32 random
     * bytes written as 64 hex digits, as {@code openssl rand -hex 32} writes one (raw random bytes end in
     * a line feed one time in 256, and a key file's one final newline is not part of the key).
     */
    public static Path keyFile(Path file) throws IOException {
        byte[] key = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(key);
        Files.writeString(file, java.util.HexFormat.of().formatHex(key) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
