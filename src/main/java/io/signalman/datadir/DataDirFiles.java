package io.signalman.datadir;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/**
 * The files Signalman writes in a data directory, recognised by folder and name, as paths relative
 * to it: {@code decisions/decisions-*.jsonl(.gz)}, {@code state/snapshot-N.jsonl},
 * {@code state/journal-N.jsonl}, {@code state/answers/answers-N.jsonl}, {@code activations.jsonl},
 * {@code users.jsonl}, the audit log {@code audit.jsonl} with its rolled files
 * {@code audit/audit-N.jsonl.gz}, and the leftovers of a write cut short ({@code *.tmp}). Anything
 * else in the directory (a workbench draft, an operator's own file) is not the manifest's business.
 */
final class DataDirFiles {

    static final String DECISIONS = "decisions";
    static final String STATE = "state";
    static final String ANSWERS = "state/answers";
    static final String ACTIVATIONS = "activations.jsonl";
    static final String USERS = "users.jsonl";
    static final String AUDIT = "audit.jsonl";
    static final String AUDIT_ROLLED = "audit";
    /** A rolled audit file: compressed from {@code audit.jsonl} when it reached its roll size. */
    static final Pattern ROLLED_AUDIT = Pattern.compile("audit-\\d{6,}\\.jsonl\\.gz");
    private static final Pattern LOG = Pattern.compile("decisions-.*\\.jsonl(\\.gz)?");
    static final Pattern SNAPSHOT = Pattern.compile("snapshot-(\\d+)\\.jsonl");
    static final Pattern JOURNAL = Pattern.compile("journal-(\\d+)\\.jsonl");
    private static final Pattern ANSWER = Pattern.compile("answers-\\d+\\.jsonl");

    private DataDirFiles() {
    }

    /** Every file of ours under {@code root}, leftovers ({@code .tmp}) included, relative and sorted. */
    static List<String> list(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        collect(root, DECISIONS, n -> LOG.matcher(n).matches() || n.startsWith("decisions-") && n.endsWith(".tmp"), out);
        collect(root, STATE, n -> SNAPSHOT.matcher(n).matches() || JOURNAL.matcher(n).matches()
                || n.startsWith("snapshot-") && n.endsWith(".tmp"), out);
        collect(root, ANSWERS, n -> ANSWER.matcher(n).matches(), out);
        collect(root, AUDIT_ROLLED, n -> ROLLED_AUDIT.matcher(n).matches() || n.startsWith("audit-") && n.endsWith(".gz.tmp"),
                out);
        for (String single : new String[] {ACTIVATIONS, USERS, AUDIT}) {
            if (Files.isRegularFile(root.resolve(single))) {
                out.add(single);
            }
        }
        out.sort(null);
        return out;
    }

    private static void collect(Path root, String folder, java.util.function.Predicate<String> ours, List<String> out)
            throws IOException {
        Path dir = root.resolve(folder);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).filter(ours)
                    .forEach(n -> out.add(folder + "/" + n));
        }
    }

    static boolean log(String rel) {
        return rel.startsWith(DECISIONS + "/") && LOG.matcher(rel.substring(DECISIONS.length() + 1)).matches();
    }

    static boolean compressed(String rel) {
        return rel.endsWith(".gz");
    }

    /**
     * The file a compressed one was made from: {@code x.jsonl} for {@code x.jsonl.gz}, and
     * {@code audit.jsonl} for a rolled audit file (the audit log is always written to that name).
     */
    static String original(String gzRel) {
        return rolledAudit(gzRel) ? AUDIT : gzRel.substring(0, gzRel.length() - 3);
    }

    static boolean rolledAudit(String rel) {
        return rel.startsWith(AUDIT_ROLLED + "/") && ROLLED_AUDIT.matcher(rel.substring(AUDIT_ROLLED.length() + 1)).matches();
    }

    /** Whether {@code plain} holds exactly what {@code gz} decompresses to (a compression whose original was not deleted). */
    static boolean sameAsCompressed(Path plain, Path gz) throws IOException {
        try (InputStream a = new BufferedInputStream(Files.newInputStream(plain));
             InputStream b = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(gz)))) {
            byte[] x = new byte[1 << 16];
            byte[] y = new byte[1 << 16];
            while (true) {
                int n = a.readNBytes(x, 0, x.length);
                int m = b.readNBytes(y, 0, y.length);
                if (n != m || !java.util.Arrays.equals(x, 0, n, y, 0, m)) {
                    return false;
                }
                if (n == 0) {
                    return true;
                }
            }
        } catch (java.io.EOFException | java.util.zip.ZipException e) {
            return false;
        }
    }

    /** The generation of a {@code state/snapshot-N.jsonl} or {@code state/journal-N.jsonl}, else -1. */
    static long generation(String rel) {
        if (!rel.startsWith(STATE + "/") || rel.startsWith(ANSWERS + "/")) {
            return -1;
        }
        String n = rel.substring(STATE.length() + 1);
        for (Pattern p : new Pattern[] {SNAPSHOT, JOURNAL}) {
            Matcher m = p.matcher(n);
            if (m.matches()) {
                return Long.parseLong(m.group(1));
            }
        }
        return -1;
    }

    static boolean snapshot(String rel) {
        return rel.startsWith(STATE + "/snapshot-") && rel.endsWith(".jsonl");
    }

    /** Whether the file's first line (decompressed, for a {@code .gz}) carries a checksum: written by format 2. */
    static boolean sealed(Path file) throws IOException {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file));
             InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            byte[] buf = new byte[1 << 16];
            int n = 0;
            int r;
            while (n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0) {
                int nl = LineReader.newline(buf, n, n + r);
                n += r;
                if (nl >= 0) {
                    return RecordLine.sealed(buf, 0, nl);
                }
            }
            return false;
        } catch (java.io.EOFException e) {
            return false;
        }
    }

    /** CRC32C of a whole file's bytes (a closed file, compressed or not, as stored). */
    static int crc(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                crc.update(buf, 0, n);
            }
        }
        return (int) crc.getValue();
    }
}
