package io.signalman.people;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The audit log's files: {@code audit.jsonl}, and the rolled {@code audit/audit-N.jsonl.gz} before it. */
final class AuditFiles {

    private static final Pattern ROLLED_NAME = Pattern.compile("audit-(\\d{6,})\\.jsonl\\.gz");

    private AuditFiles() {
    }

    /** The highest number of a rolled file, 0 when none is. */
    static long lastRolled(Path data) throws IOException {
        return rolled(data).stream().mapToLong(AuditFiles::number).max().orElse(0);
    }

    /** The audit log's files in writing order: the rolled ones by number, then {@code audit.jsonl}. */
    static List<Path> files(Path data) throws IOException {
        List<Path> out = new ArrayList<>(rolled(data));
        out.sort(java.util.Comparator.comparingLong(AuditFiles::number));
        if (Files.isRegularFile(data.resolve(AuditLog.FILE))) {
            out.add(data.resolve(AuditLog.FILE));
        }
        return out;
    }

    private static List<Path> rolled(Path data) throws IOException {
        Path dir = data.resolve(AuditLog.ROLLED);
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
