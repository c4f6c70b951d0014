package io.signalman.workbench;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The file names a draft accepts: a path relative to the bundle, of plain segments, ending in a
 * kind of file the bundle holds. {@code ../}, absolute paths, backslashes, hidden files and any
 * other character are refused before a path is ever resolved, and the resolved path is checked
 * to stay under the draft's folder as well.
 */
final class DraftPaths {

    /** One path segment: letters, digits, dot, dash, underscore; not starting with a dot. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}");
    private static final int MAX_DEPTH = 4;
    /**
     * What a bundle holds as text: rules, reference data, decision tables, scenarios, the analysts'
     * READMEs. A draft's files are saved as text, so these are the kinds it takes.
     */
    static final java.util.List<String> KINDS = io.signalman.engine.BundleText.KINDS;

    private DraftPaths() {
    }

    /** The path under {@code root}, or a 400 naming what is wrong with {@code name}. */
    static Path resolve(Path root, String name) {
        if (name == null || name.isEmpty()) {
            throw bad("a file name is needed");
        }
        String[] parts = name.split("/", -1);
        if (parts.length > MAX_DEPTH) {
            throw bad("too deep: at most " + MAX_DEPTH + " folders");
        }
        for (String p : parts) {
            if (p.equals("..") || p.equals(".")) {
                throw bad("\"" + p + "\" is refused: a draft cannot reach outside the bundle folder");
            }
            if (!SEGMENT.matcher(p).matches()) {
                throw bad("\"" + shorten(name) + "\" is not a plain relative path (letters, digits, '.', '-', '_' and '/')");
            }
        }
        if (KINDS.stream().noneMatch(name::endsWith)) {
            throw bad("only " + String.join(", ", KINDS) + " files belong in a rule bundle");
        }
        Path base = root.toAbsolutePath().normalize();
        Path p = base.resolve(name).normalize();
        if (!p.startsWith(base) || p.equals(base)) {
            throw bad("\"" + shorten(name) + "\" is outside the bundle folder");
        }
        return p;
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    private static WorkbenchException bad(String message) {
        return new WorkbenchException(400, "bad_file_name", message);
    }
}
