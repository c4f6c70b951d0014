package io.signalman.people;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordLine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code signalman audit verify}: proves the audit log's chain unbroken, changing nothing (safe
 * beside a running server). Every line must match its checksum and be an entry; each entry's
 * {@code seq} must follow the one before and its {@code prev} must be the SHA-256 of the entry
 * before it as written. A line edited and its checksum made to match again still breaks the
 * chain at the next entry; an entry removed, inserted or moved breaks it where it was. The
 * newest entry has no successor to vouch for it: its hash, the head, is printed, so that it can
 * be kept elsewhere (a ticket, another system) and compared later.
 */
public final class AuditVerify {

    /** What the check found: problems (the chain is broken, or a line is damaged), notes, the entries and the head. */
    public record Report(List<String> problems, List<String> notes, long entries, String head) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private AuditVerify() {
    }

    public static Report check(Path data) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long seq = 0;
        String head = null;
        List<Path> files = AuditLog.files(data);
        if (files.isEmpty()) {
            notes.add("no audit log yet in " + data + ": nothing has been recorded");
        }
        for (int f = 0; f < files.size(); f++) {
            Path p = files.get(f);
            String name = data.relativize(p).toString();
            try (InputStream in = AuditLog.input(p); LineReader r = new LineReader(in)) {
                while (r.next()) {
                    String at = name + " line " + r.number();
                    if (!r.terminated()) {
                        String what = at + ": a last entry without its end (" + r.length() + " bytes)";
                        if (f == files.size() - 1) {
                            notes.add(what + ": a write in progress, or cut short by a crash (the next start cuts it)");
                        } else {
                            problems.add(what + ", in a rolled file");
                        }
                        continue;
                    }
                    RecordLine.Check c = RecordLine.check(r.bytes(), 0, r.length());
                    if (c != RecordLine.Check.SEALED) {
                        problems.add(at + ": " + (c == RecordLine.Check.UNSEALED ? "carries no checksum"
                                : "does not match its checksum (damaged or edited)"));
                    }
                    byte[] entry = RecordLine.unseal(r.bytes(), 0, r.length());
                    JsonNode e = RecordFiles.json(entry);
                    if (e == null || !e.isObject()) {
                        problems.add(at + ": not an audit entry");
                        head = AuditLog.hash(entry);
                        seq++;
                        continue;
                    }
                    seq++;
                    if (e.path("seq").asLong(-1) != seq) {
                        problems.add(at + ": entry " + e.path("seq").asText("?") + " where entry " + seq + " should be "
                                + "(an entry was removed, added or moved)");
                        seq = e.path("seq").asLong(seq);
                    }
                    String prev = e.path("prev").isNull() || e.path("prev").isMissingNode() ? null : e.path("prev").asText();
                    if (!Objects.equals(prev, head)) {
                        problems.add(at + " (entry " + e.path("seq").asText("?") + "): its prev is " + prev + ", but the entry "
                                + "before it hashes to " + head + ": the entry before it was changed, removed or added");
                    }
                    head = AuditLog.hash(entry);
                }
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                problems.add(name + ": the compressed file is damaged or cut short (" + e.getMessage() + ")");
            }
        }
        return new Report(List.copyOf(problems), List.copyOf(notes), seq, head);
    }
}
