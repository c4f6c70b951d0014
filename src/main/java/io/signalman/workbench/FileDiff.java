package io.signalman.workbench;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.List;

/**
 * The diff of one file in the activation record and on the page: a unified diff (the format
 * {@code git diff} and {@code patch} read) by java-diff-utils, with {@link #CONTEXT} lines of
 * context around each change.
 */
final class FileDiff {

    static final int CONTEXT = 2;

    private FileDiff() {
    }

    /** The unified diff of {@code file} from {@code before} to {@code after}; an empty text is no file. */
    static String unified(String file, String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        Patch<String> patch = DiffUtils.diff(a, b);
        List<String> out = UnifiedDiffUtils.generateUnifiedDiff(before.isEmpty() ? "/dev/null" : "a/" + file,
                after.isEmpty() ? "/dev/null" : "b/" + file, a, patch, CONTEXT);
        return out.isEmpty() ? "" : String.join("\n", out) + "\n";
    }

    /** An empty file has no lines (not one empty line); a final newline ends the last line. */
    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : text.lines().toList();
    }
}
