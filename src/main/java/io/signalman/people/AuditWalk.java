package io.signalman.people;

import io.signalman.control.RecordFiles;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordLine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One walk over the audit log's files, oldest first, for {@link AuditVerify}: each line's checksum,
 * its place in the chain, its key and MAC; what it finds, where the first problem is, and the
 * entries before it (those a start may act on).
 */
final class AuditWalk {

    private final Path data;
    private final AuditKey key;
    private final long recordedEntries;
    private final Consumer<JsonNode> onVerified;
    final List<String> problems = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    /** The seq the next entry must follow: the last entry's own, so that one misplaced entry is one problem. */
    long seq;
    /** The entries (whole lines) read. */
    long count;
    String head;
    long keyedFrom;
    String keyId;
    String keyProblem;
    AuditVerify.Break firstBreak;
    long verified;
    String verifiedHead;
    String headAtRecord;
    int files;

    AuditWalk(Path data, AuditKey key, long recordedEntries, Consumer<JsonNode> onVerified) {
        this.data = data;
        this.key = key;
        this.recordedEntries = recordedEntries;
        this.onVerified = onVerified;
    }

    void run() throws IOException {
        List<Path> paths = AuditFiles.files(data);
        files = paths.size();
        for (int f = 0; f < paths.size(); f++) {
            Path p = paths.get(f);
            String name = data.relativize(p).toString().replace('\\', '/');
            long end = 0;
            try (InputStream in = AuditFiles.input(p); LineReader r = new LineReader(in)) {
                while (r.next()) {
                    String at = name + " line " + r.number();
                    if (!r.terminated()) {
                        String what = at + ": a last entry without its end (" + r.length() + " bytes)";
                        if (f == paths.size() - 1) {
                            notes.add(what + ": a write in progress, or cut short by a crash (the next start cuts it)");
                        } else {
                            problem(new AuditVerify.Break(name, r.number(), r.offset()), what + ", in a rolled file");
                        }
                        continue;
                    }
                    line(new AuditVerify.Break(name, r.number(), r.offset()), at, r);
                    end = r.offset() + r.length() + 1;
                }
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                problem(new AuditVerify.Break(name, -1, end), name + ": the compressed file is damaged or cut short (" + e.getMessage()
                        + ")");
            }
        }
    }

    /** One whole line: its checksum, its place in the chain, its key and MAC. */
    private void line(AuditVerify.Break where, String at, LineReader r) {
        RecordLine.Check c = RecordLine.check(r.bytes(), 0, r.length());
        if (c != RecordLine.Check.SEALED) {
            problem(where, at + ": " + (c == RecordLine.Check.UNSEALED ? "carries no checksum"
                    : "does not match its checksum (damaged or edited)"));
        }
        entry(where, at, RecordLine.unseal(r.bytes(), 0, r.length()));
    }

    /** Entries as exported ({@code GET /v1/audit?format=jsonl}: one entry a line, as written, without a checksum). */
    void exported(Path file) throws IOException {
        String name = file.getFileName().toString();
        files = 1;
        try (InputStream in = java.nio.file.Files.newInputStream(file); LineReader r = new LineReader(in)) {
            while (r.next()) {
                if (r.length() > 0) {
                    entry(new AuditVerify.Break(name, r.number(), r.offset()), name + " line " + r.number(),
                            java.util.Arrays.copyOf(r.bytes(), r.length()));
                }
            }
        }
    }

    /** One entry: its place in the chain, its key and MAC. */
    private void entry(AuditVerify.Break where, String at, byte[] entry) {
        JsonNode e = RecordFiles.json(entry);
        seq++;
        count++;
        if (e == null || !e.isObject()) {
            problem(where, at + ": not an audit entry");
        } else {
            if (e.path("seq").asLong(-1) != seq) {
                problem(where, at + ": entry " + e.path("seq").asText("?") + " where entry " + seq + " should be "
                        + "(an entry was removed, added or moved)");
                seq = e.path("seq").asLong(seq);
            }
            String prev = e.path("prev").isNull() || e.path("prev").isMissingNode() ? null : e.path("prev").asText();
            if (!Objects.equals(prev, head)) {
                problem(where, at + " (entry " + e.path("seq").asText("?") + "): its prev is " + prev + ", but the entry "
                        + "before it chains to " + head + ": the entry before it was changed, removed or added");
            }
            keyed(where, at, e, entry);
        }
        head = AuditSeal.link(entry);
        if (count == recordedEntries) {
            headAtRecord = head;
        }
        if (firstBreak == null && keyProblem == null) {
            verified++;
            verifiedHead = head;
            onVerified.accept(e);
        }
    }

    /** A keyed entry's key and MAC; an unkeyed one after keyed ones. */
    private void keyed(AuditVerify.Break where, String at, JsonNode e, byte[] entry) {
        String id = e.path("key").asText(null);
        String mac = AuditSeal.mac(entry);
        if (id == null && mac == null) {
            if (keyedFrom > 0) {
                problem(where, at + ": is not keyed, though the log is keyed from entry " + keyedFrom + " on: written "
                        + "without the key, or forged");
            }
            return;
        }
        if (keyedFrom == 0) {
            keyedFrom = seq;
            keyId = id;
            if (key == null) {
                keyProblem = "this log is keyed (key id " + id + ") from entry " + seq + " on: give --audit-key-file";
            } else if (!key.id().equals(id)) {
                keyProblem = "this log is keyed with key id " + id + " from entry " + seq + " on, but the key given has "
                        + "id " + key.id() + ": give the key it was written with";
            }
        } else if (!Objects.equals(id, keyId)) {
            problem(where, at + ": names key id " + id + ", but the log is keyed with " + keyId + ": it was changed");
        }
        if (mac == null) {
            problem(where, at + ": names a key but carries no MAC: it was changed");
        } else if (key != null && keyProblem == null && !key.mac(AuditSeal.body(entry)).equals(mac)) {
            problem(where, at + ": its MAC does not match: the entry was changed, or forged without the key");
        }
    }

    private void problem(AuditVerify.Break where, String text) {
        if (firstBreak == null) {
            firstBreak = where;
        }
        problems.add(text);
    }
}
