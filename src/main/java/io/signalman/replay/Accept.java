package io.signalman.replay;

import io.signalman.packs.Packs;
import io.signalman.datadir.RecordLine;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPOutputStream;

/**
 * {@code replay --accept}: records the candidate's decisions as the archive's own, changing only
 * what changed. A record whose decision comes out the same (by {@link Redecision}, as replay
 * compares) is copied byte for byte, old revision included; a changed one gets the candidate's
 * decision and revision, its other fields as recorded ({@code state_after} too, the state the
 * node stored: see {@link Redecision#accepted}). So the diff of an accepted change shows exactly
 * the changed decisions. Each file is streamed into a new file beside it, which then atomically
 * replaces it; a file with no change is left untouched.
 */
public final class Accept {

    private Accept() {
    }

    /** Rewrites the archive's changed records (of the selection); returns how many were rewritten. */
    public static long rewrite(RuleBundle candidate, Archive archive, Selection selection) throws IOException {
        ReplayBundles bundles = new ReplayBundles(candidate, null, archive);
        long rewritten = 0;
        for (Archive.ArchiveFile file : archive.files()) {
            if (bundles.refused(file) == null) {
                rewritten += rewrite(file, bundles.forFile(file).candidate(), selection);
            }
        }
        return rewritten;
    }

    private static long rewrite(Archive.ArchiveFile file, RuleBundle candidate, Selection selection) throws IOException {
        Path tmp = file.path().resolveSibling(file.path().getFileName() + ".accept.tmp");
        long changed = 0;
        try (InputStream in = new BufferedInputStream(file.open(), 64 * 1024);
             OutputStream out = output(file, tmp)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
            boolean more = true;
            while (more) {
                line.reset();
                int b;
                while ((b = in.read()) >= 0 && b != '\n') {
                    line.write(b);
                }
                more = b >= 0;
                if (!more && line.size() == 0) {
                    break;
                }
                byte[] accepted = accepted(line.toByteArray(), candidate, selection);
                if (accepted == null) {
                    line.writeTo(out);
                } else {
                    out.write(accepted);
                    changed++;
                }
                if (more) {
                    out.write('\n');
                }
            }
        }
        if (changed == 0) {
            Files.delete(tmp);
        } else {
            Files.move(tmp, file.path(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return changed;
    }

    private static OutputStream output(Archive.ArchiveFile file, Path tmp) throws IOException {
        OutputStream raw = new BufferedOutputStream(Files.newOutputStream(tmp), 64 * 1024);
        return file.compressed() ? new GZIPOutputStream(raw, 64 * 1024) : raw;
    }

    /** The line with the candidate's decision, or null to keep it as it is (unchanged, unreadable, not selected). */
    private static byte[] accepted(byte[] line, RuleBundle candidate, Selection selection) {
        DecisionRecord rec;
        try {
            rec = RecordParser.parse(line, 0, line.length);
        } catch (InputException e) {
            return null;
        }
        DecisionPack<?, ?> pack = Packs.named(rec.pack()).orElse(null);
        if (pack == null || candidate.pack(rec.pack()).isEmpty()
                || selection.test(rec.pack(), rec.at(), rec.decisionId(), rec.arm()) != Selection.Skip.NONE) {
            return null;
        }
        try {
            Redecision<?, ?> r = Redecision.of(pack, rec, candidate, null);
            if (!r.changed()) {
                return null;
            }
            byte[] json = Json.bytes(r.accepted(rec).toJson());
            if (!RecordLine.sealed(line, 0, line.length)) {
                return json;
            }
            // A server's own log line carried its checksum: the rewritten one does too, or a start would refuse it.
            byte[] sealed = RecordLine.seal(json);
            return java.util.Arrays.copyOf(sealed, sealed.length - 1);
        } catch (InputException | RuntimeException e) {
            return null;
        }
    }
}
