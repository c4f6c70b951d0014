package io.signalman.decisionlog;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How decision-log files are named, and the order they are read in.
 *
 * <p>A file is {@code decisions-<start time>-<pid>-<sequence>.jsonl}, the sequence zero-padded to
 * {@link #SEQUENCE_DIGITS} digits so that a plain sort of the names is the order they were
 * written. Files written before the padding ({@code ...-9.jsonl}, {@code ...-10.jsonl}) sort
 * wrongly by name ({@code -10} before {@code -9}), so {@link #ORDER} compares the sequence as a
 * number: old and new names, and a folder holding both, are read in the order they were written.
 */
public final class LogFiles {

    /** Enough for 64 MiB files to fill 60 PB before a name grows a digit (and it still sorts right). */
    public static final int SEQUENCE_DIGITS = 6;
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    /** A log file's name, rolled and compressed or not: the part before the sequence, the sequence. */
    private static final Pattern NAME = Pattern.compile("(decisions-.*-)(\\d+)(\\.jsonl(?:\\.gz)?)");

    /**
     * Archive order: by folder, then by the name before the sequence (start time and pid), then by
     * the sequence as a number; any other name by itself. Consistent with plain name order for
     * every name that is not a decision-log file.
     */
    public static final Comparator<Path> ORDER = Comparator
            .comparing((Path p) -> String.valueOf(p.toAbsolutePath().getParent()))
            .thenComparing(LogFiles::group)
            .thenComparingLong(LogFiles::sequence)
            .thenComparing(p -> p.getFileName().toString());

    private LogFiles() {
    }

    /** The name of a new log file of this process. */
    public static String name(Instant start, long pid, int sequence) {
        return "decisions-" + FILE_TIME.format(start) + "-" + pid + "-" + pad(sequence) + ".jsonl";
    }

    static String pad(int sequence) {
        String s = Integer.toString(sequence);
        return s.length() >= SEQUENCE_DIGITS ? s : "0".repeat(SEQUENCE_DIGITS - s.length()) + s;
    }

    private static String group(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() ? m.group(1) : p.getFileName().toString();
    }

    private static long sequence(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        if (!m.matches() || m.group(2).length() > 18) {
            return -1;
        }
        return Long.parseLong(m.group(2));
    }
}
