package io.signalman.people;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.LogHead;
import io.signalman.datadir.Manifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code signalman audit verify}, and the check a start makes before it reads the log: proves the
 * audit log's chain unbroken, changing nothing (safe beside a running server). Every line must
 * match its checksum and be an entry; each entry's {@code seq} must follow the one before and its
 * {@code prev} must be the chain value of the entry before it. A keyed entry's MAC must match under
 * the key given ({@link AuditKey}), so an entry edited and re-sealed without the key is caught at
 * that entry; once keyed, every later entry must be. Without a key the chain guards against
 * accidents only: anyone who can write the file can recompute it. With a key, a log that is not
 * keyed is refused (unless this start created the directory): a keyed log stripped of its MACs and
 * re-chained, or deleted with the manifest's record of it, looks exactly like a log never keyed, so
 * keying is an act of its own ({@link AuditLog#key}), never a side effect. Last, the log is compared with
 * the manifest's record of it ({@link LogHead}): a log shorter than it was, missing, or whose
 * entry at the recorded length chains to another head, was cut short or rewritten. The head is
 * printed, to be kept elsewhere (a ticket, another system): only that copy vouches for a log
 * rolled back together with its manifest.
 */
public final class AuditVerify {

    /** The name under which the manifest records the audit log's head. */
    public static final String LOG = "audit";

    /** Where the first problem is: a file (relative to the data directory), its line and the byte it starts at. */
    public record Break(String file, long line, long offset) {
    }

    /**
     * What the check found. {@code keyProblem}: the key is missing or another, or the log is not
     * keyed though a key was given (the log cannot be proven, though it may be whole). {@code firstBreak}: the first line at fault, or null when
     * the lines are whole (a problem may still be the manifest's). {@code verified} entries, up to
     * {@code verifiedHead}, come before any problem. {@code keyedFrom}: the first keyed entry's
     * seq, 0 when none is. {@code unkeyed}: a key was given, but the log is not keyed (or the
     * manifest's record of it is not, or is gone): refused until it is keyed on purpose
     * ({@link AuditLog#key}), since a keyed log stripped of its keys looks just like it.
     */
    public record Report(List<String> problems, List<String> notes, long entries, String head, long keyedFrom,
                         String keyProblem, Break firstBreak, long verified, String verifiedHead, boolean unkeyed) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private AuditVerify() {
    }

    /** The log of {@code data} unkeyed, against the manifest on disk. */
    public static Report check(Path data) throws IOException {
        return check(data, null);
    }

    /** The log of {@code data} with {@code key} (or none), against the manifest on disk. */
    public static Report check(Path data, AuditKey key) throws IOException {
        // The manifest before the log: beside a running server the log may then only be ahead of it.
        Manifest m = Manifest.existing(data);
        return check(data, key, m == null ? FileRegistry.NONE : m, e -> { });
    }

    /**
     * An export of a log ({@code GET /v1/audit?format=jsonl}, the cluster's one chain): its entries
     * in one unbroken sequence, each linked to the one before, each keyed entry's MAC under {@code key}.
     */
    public static Report checkExport(Path file, AuditKey key) throws IOException {
        AuditWalk w = new AuditWalk(file.getParent(), key, -1, e -> { });
        w.exported(file);
        boolean unkeyed = unkeyed(w, key, FileRegistry.NONE, null);
        if (w.keyProblem != null) {
            w.problems.add(0, w.keyProblem);
        }
        if (w.keyedFrom == 0 && key == null) {
            w.notes.add("the log is not keyed: its chain guards against accidents only");
        }
        return new Report(List.copyOf(w.problems), List.copyOf(w.notes), w.count, w.head, w.keyedFrom, w.keyProblem,
                w.firstBreak, w.verified, w.verifiedHead, unkeyed);
    }

    /** The log against {@code cover}'s record of it; {@code verified} is given each entry before the first problem. */
    static Report check(Path data, AuditKey key, FileRegistry cover, Consumer<JsonNode> verified) throws IOException {
        LogHead recorded = cover.dataId() == null ? null : cover.head(LOG);
        AuditWalk w = new AuditWalk(data, key, recorded == null ? -1 : recorded.entries(), verified);
        w.run();
        if (cover.dataId() != null) {
            compare(w, key, cover.dataId(), recorded);
        }
        boolean unkeyed = unkeyed(w, key, cover, recorded);
        if (w.keyProblem != null) {
            w.problems.add(0, w.keyProblem);
        }
        if (w.keyedFrom == 0 && key == null) {
            w.notes.add("the log is not keyed: its chain guards against accidents only, since anyone who can write the data "
                    + "directory can recompute it (key it once with signalman audit key, then serve with --audit-key-file)");
        } else if (w.keyedFrom > 1 && w.problems.isEmpty()) {
            w.notes.add("entries 1 to " + (w.keyedFrom - 1) + " were written before the log was keyed: the keyed entries "
                    + "vouch for them, but approvals count only from keyed entries");
        }
        return new Report(List.copyOf(w.problems), List.copyOf(w.notes), w.count, w.head, w.keyedFrom, w.keyProblem,
                w.firstBreak, w.verified, w.verifiedHead, unkeyed);
    }

    /**
     * Whether a log read with {@code key} is one that was never keyed, or looks like one: entries
     * but none keyed, or (in a data directory this start did not create) the manifest's record of
     * the log missing or unkeyed. Nothing in the directory tells that from a keyed log stripped of
     * its keys, or deleted or emptied with its record rewritten, so it is keyed only on purpose
     * ({@link AuditLog#key}); when it is, the walk's key problem says which of the three it is.
     */
    private static boolean unkeyed(AuditWalk w, AuditKey key, FileRegistry cover, LogHead recorded) {
        if (key == null || w.keyProblem != null || w.keyedFrom > 0) {
            return false;
        }
        if (w.count > 0) {
            w.keyProblem = "this log is not keyed, but a key was given: a keyed log stripped of its keys and re-chained "
                    + "looks just like it";
        } else if (cover.dataId() != null && !cover.created() && (recorded == null || !recorded.keyed())) {
            w.keyProblem = recorded == null ? "the manifest holds no record of the audit log, but a key was given: a keyed "
                    + "log deleted or emptied together with its record looks just like a log never keyed"
                    : "the manifest's record of the audit log is not keyed, but a key was given: a keyed log rewritten "
                            + "together with its record looks just like a log never keyed";
        }
        return w.keyProblem != null;
    }

    /** The log against the manifest's record of it, written after each entry (so the log may be ahead, never behind). */
    private static void compare(AuditWalk w, AuditKey key, String dataId, LogHead h) {
        if (h == null) {
            if (w.keyedFrom > 0) {
                w.problems.add("the manifest holds no record of the audit log, though the log is keyed: the record was removed");
            } else if (w.count > 0) {
                w.notes.add("the manifest holds no record of the audit log yet (a directory last written by an earlier "
                        + "version): the next start records it");
            }
            return;
        }
        if (h.keyed()) {
            if (key == null) {
                w.keyProblem = Objects.requireNonNullElse(w.keyProblem, "this log is keyed (key id " + h.key()
                        + ", says the manifest): give --audit-key-file");
            } else if (!h.key().equals(key.id())) {
                w.keyProblem = Objects.requireNonNullElse(w.keyProblem, "this log is keyed with key id " + h.key()
                        + " (says the manifest), but the key given has id " + key.id() + ": give the key it was written with");
            } else if (!key.mac(dataId, LOG, h).equals(h.mac())) {
                w.problems.add("the manifest's record of the audit log (" + h.entries() + " entries, head " + h.head()
                        + ") does not match its MAC: it was changed");
            }
        } else if (w.keyedFrom > 0) {
            w.problems.add("the manifest's record of the audit log is not keyed, though the log is keyed from entry "
                    + w.keyedFrom + ": the record was changed");
        }
        if (w.count < h.entries()) {
            w.problems.add(w.files == 0
                    ? "the audit log is missing (no " + AuditLog.FILE + "), but the manifest recorded " + h.entries()
                            + " entries (head " + h.head() + "): it was deleted"
                    : "the audit log holds " + w.count + " entries, but the manifest recorded " + h.entries() + " (head "
                            + h.head() + "): entries were removed from its end, or it was truncated");
        } else if (h.entries() > 0 && !Objects.equals(w.headAtRecord, h.head())) {
            w.problems.add("entry " + h.entries() + " of the audit log chains to " + w.headAtRecord + ", but the manifest "
                    + "recorded the head " + h.head() + " there: the log was rewritten or replaced");
        } else if (w.count > h.entries()) {
            w.notes.add("the log runs " + (w.count - h.entries()) + " entries past the manifest's record of it (a stop between "
                    + "an entry and its record, or a server writing now): the next start records it");
        }
    }
}
