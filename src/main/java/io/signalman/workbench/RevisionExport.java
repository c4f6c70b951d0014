package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.control.Journal;
import io.signalman.control.RevisionStore;
import io.signalman.engine.BundleFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code signalman rules export --revision REV DIR}: the files of a revision the activation
 * history holds (live before or after an activation, and kept), written into a new folder. REV is
 * an activation's number (the revision it made live) or a revision's hash, whole
 * ({@code sha256:...}) or its first 7 or more hex digits when no other revision of the history
 * starts so (up to 9 digits alone are an activation's number; {@code sha256:} before them makes
 * them a hash). Anything else is refused before any file is looked at, so REV can never name a path.
 */
public final class RevisionExport {

    private static final Pattern SEQ = Pattern.compile("[0-9]{1,9}");
    private static final Pattern HASH = Pattern.compile("(sha256:)?[0-9a-f]{7,64}");

    /** Why nothing was written; {@link #usage}: REV or DIR is not what the command takes (exit 2), else REV is unknown (exit 1). */
    public static final class Refused extends Exception {
        private final boolean usage;

        Refused(boolean usage, String message) {
            super(message);
            this.usage = usage;
        }

        public boolean usage() {
            return usage;
        }
    }

    /** What was written: the revision, the activation REV named (0: REV was a hash), and how many files. */
    public record Exported(String revision, long activation, int files) {
    }

    private RevisionExport() {
    }

    /**
     * Writes revision {@code rev} of the history ({@code activations}, with the copies {@code store}
     * keeps) into {@code dir}, which must be absent or an empty folder. Blocking.
     */
    public static Exported export(Journal activations, RevisionStore store, String rev, Path dir) throws Refused, IOException {
        String asked = rev == null ? "" : rev.strip().toLowerCase(Locale.ROOT);
        boolean bySeq = SEQ.matcher(asked).matches();
        if (!bySeq && !HASH.matcher(asked).matches()) {
            throw new Refused(true, "--revision takes an activation's number (3) or a revision's hash (sha256:... or its first 7 "
                    + "or more hex digits), not \"" + shown(rev) + "\"");
        }
        refuseOverwrite(dir);
        ActivationLog log = new ActivationLog(activations, new Revisions(store));
        long seq = 0;
        String revision;
        if (bySeq) {
            seq = Long.parseLong(asked);
            revision = null;
            for (JsonNode n : log.history()) {
                if (n.path("seq").asLong() == seq) {
                    revision = n.path("new_revision").asText(null);
                }
            }
            if (revision == null) {
                throw new Refused(false, "there is no activation #" + seq + " in the activation history (" + log.history().size()
                        + " activation(s))");
            }
        } else {
            revision = byHash(log, asked.startsWith("sha256:") ? asked.substring(7) : asked);
        }
        BundleFiles files;
        try {
            files = log.revisions().read(revision);
        } catch (WorkbenchException e) {
            throw new Refused(false, "revision " + revision + " is in the activation history, but " + e.getMessage());
        }
        Files.createDirectories(dir);
        for (String p : files.paths()) {
            Path target;
            try {
                target = DraftPaths.resolve(dir, p);
            } catch (WorkbenchException e) {
                throw new IOException("the copy of " + revision + " holds a file that is no bundle file (" + e.getMessage() + ")");
            }
            Files.createDirectories(target.getParent());
            Files.write(target, files.bytes(p), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        return new Exported(revision, seq, files.paths().size());
    }

    /** The one revision of the history whose hex digits start with {@code hex}. */
    private static String byHash(ActivationLog log, String hex) throws Refused {
        Set<String> named = new LinkedHashSet<>();
        for (JsonNode n : log.history()) {
            for (String f : new String[] {"old_revision", "new_revision"}) {
                String r = n.path(f).asText("");
                if (Revisions.wellFormed(r) && r.substring(7).startsWith(hex)) {
                    named.add(r);
                }
            }
        }
        if (named.isEmpty()) {
            throw new Refused(false, "no revision of the activation history starts with " + hex);
        }
        if (named.size() > 1) {
            throw new Refused(false, named.size() + " revisions of the activation history start with " + hex
                    + ": give more digits");
        }
        return named.iterator().next();
    }

    private static void refuseOverwrite(Path dir) throws Refused, IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new Refused(true, dir + " is a symbolic link: give a new folder");
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new Refused(true, dir + " is a file: give a new or empty folder");
        }
        try (Stream<Path> in = Files.list(dir)) {
            if (in.findAny().isPresent()) {
                throw new Refused(true, dir + " is not empty: nothing is overwritten, give a new or empty folder");
            }
        }
    }

    private static String shown(String s) {
        String t = s == null ? "" : s.replaceAll("\\p{Cntrl}", "?");
        return t.length() > 80 ? t.substring(0, 80) + "..." : t;
    }
}
