package io.signalman.people;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An audit log a start finds broken: the refusal that names it, and, when the loss is accepted
 * ({@code --accept-data-loss}), the log cut before its first bad entry, as a decision file is cut
 * before its first corrupt record. What follows the cut (the rest of that file, and every later
 * file) is moved under {@code set-aside/<time>/}, never deleted: the entries before it are the
 * ones that verified, and the only ones the server acts on.
 */
final class AuditRepair {

    private static final Logger LOG = LoggerFactory.getLogger(AuditRepair.class);
    private static final int LISTED = 10;

    private AuditRepair() {
    }

    /** Why a start refuses the log of {@code data}, and what the operator can do. */
    static String refusal(Path data, AuditVerify.Report r) {
        List<String> shown = r.problems().subList(0, Math.min(LISTED, r.problems().size()));
        String more = r.problems().size() > LISTED ? "\n  ... and " + (r.problems().size() - LISTED) + " more" : "";
        String what = "the audit log in " + data + " does not verify:\n  " + String.join("\n  ", shown) + more + "\n";
        if (r.unkeyed()) {
            return what + "If this log was never keyed, key it once, with the server stopped: signalman audit key --data " + data
                    + " --audit-key-file FILE (it prints the head of the unkeyed entries, to compare with a copy kept "
                    + "elsewhere). If it was keyed, it was rewritten or deleted: restore it (with "
                    + io.signalman.datadir.Manifest.NAME + ") from a backup. --accept-data-loss does not apply";
        }
        if (r.keyProblem() != null) {
            return what + "Give the key it is keyed with (--audit-key-file FILE, or SIGNALMAN_AUDIT_KEY_FILE); "
                    + "--accept-data-loss does not apply: the key is missing or another, not the data";
        }
        String keep = r.firstBreak() == null ? "go on with the log as it is"
                : "keep the " + r.verified() + " entries before " + r.firstBreak().file()
                        + (r.firstBreak().line() > 0 ? " line " + r.firstBreak().line() : "") + " and set the rest aside";
        return what + "Restore it (with " + io.signalman.datadir.Manifest.NAME + ") from a backup, or start with "
                + "--accept-data-loss to " + keep + ", recording the loss in the log (approvals count only from the entries "
                + "kept); signalman audit verify --data " + data + " [--audit-key-file FILE] lists every problem";
    }

    /** The entry that records a loss accepted: what was wrong, how many entries were kept, where the rest went. */
    static ObjectNode lossEntry(AuditVerify.Report r, Path data, Path aside) {
        ObjectNode f = Json.object().put("entries_kept", r.verified()).put("entries_found", r.entries());
        ArrayNode problems = f.putArray("problems");
        r.problems().stream().limit(LISTED).forEach(problems::add);
        f.put("set_aside", aside == null ? null : data.relativize(aside).toString().replace('\\', '/'));
        return f.put("note", "started with --accept-data-loss on an audit log that did not verify");
    }

    /**
     * Cuts the log before {@code at}: the rest of that file and every later file are moved under
     * {@code set-aside/<time>/} (unlisted from the manifest first). A rolled file cut this way
     * leaves its good part as the new {@code audit.jsonl}. Returns the folder they went to.
     */
    static Path cut(Path data, Writing writing, AuditVerify.Break at) throws IOException {
        List<Path> files = AuditFiles.files(data);
        Path broken = data.resolve(at.file());
        int i = files.indexOf(broken);
        Path aside = DataDir.asideFolder(data);
        Files.createDirectories(aside);
        for (Path later : files.subList(i + 1, files.size())) {
            setAside(data, later, aside, writing);
        }
        Path live = data.resolve(AuditLog.FILE);
        if (broken.equals(live)) {
            Path rest = aside.resolve(AuditLog.FILE + ".from-" + at.offset());
            try (FileChannel in = FileChannel.open(live, StandardOpenOption.READ, StandardOpenOption.WRITE);
                 FileChannel out = FileChannel.open(rest, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                in.transferTo(at.offset(), in.size() - at.offset(), out);
                out.force(true);
                in.truncate(at.offset());
                in.force(true);
            }
            LOG.error("{}: cut at byte {} (--accept-data-loss); the rest is kept in {}", live, at.offset(), rest);
            return aside;
        }
        byte[] kept = goodPart(broken, at.offset());
        setAside(data, broken, aside, writing);
        Files.createFile(live);
        writing.registry().adding(live);
        try (FileChannel out = FileChannel.open(live, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(kept);
            while (b.hasRemaining()) {
                out.write(b);
            }
            out.force(true);
        }
        LOG.error("{}: its first {} bytes are the new {} (--accept-data-loss)", broken, kept.length, live);
        return aside;
    }

    /** The first {@code bytes} of a rolled file, decompressed; those verified, so a damage after them is not reached. */
    private static byte[] goodPart(Path gz, long bytes) throws IOException {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IOException(gz + ": too large to cut in memory; set it aside by hand");
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (InputStream in = AuditFiles.input(gz)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while (out.size() < bytes && (n = in.read(buf, 0, (int) Math.min(buf.length, bytes - out.size()))) > 0) {
                out.write(buf, 0, n);
            }
        } catch (java.io.EOFException | java.util.zip.ZipException e) {
            // The damage lies within the block that holds the cut: what came out before it is checked below.
        }
        if (out.size() < bytes) {
            throw new IOException(gz + ": only " + out.size() + " of the " + bytes + " bytes before the damage can be read back");
        }
        return out.toByteArray();
    }

    private static void setAside(Path data, Path file, Path aside, Writing writing) throws IOException {
        Path target = aside.resolve(data.relativize(file));
        Files.createDirectories(target.getParent());
        writing.registry().removing(file);
        Files.move(file, target);
        LOG.error("{} set aside in {} (--accept-data-loss)", file, target);
    }
}
