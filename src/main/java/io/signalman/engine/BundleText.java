package io.signalman.engine;

import io.signalman.rulelang.ControlCharacters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The files of a bundle read as text (rules, reference data, CSV tables, scenarios, READMEs) and
 * what they may hold: no control character but tab and line breaks ({@link ControlCharacters}).
 * The compiler refuses a bundle with one before compiling anything, and the workbench refuses to
 * save one; a binary decision table ({@code .xlsx}) is not text and is not looked at here.
 */
public final class BundleText {

    /** The kinds of file a bundle reads as text. */
    public static final List<String> KINDS = List.of(".drl", ".json", ".csv", ".yaml", ".yml", ".md");

    private BundleText() {
    }

    public static boolean isText(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        return KINDS.stream().anyMatch(p::endsWith);
    }

    /** Every control character {@code path} holds, located; empty for a clean file or one that is not text. */
    public static List<BundleError> refusals(String path, byte[] bytes) {
        return isText(path) ? refusals(path, new String(bytes, StandardCharsets.UTF_8)) : List.of();
    }

    /** Every control character of {@code text}, the content of {@code path}, located. */
    public static List<BundleError> refusals(String path, String text) {
        return ControlCharacters.in(text).stream().map(f -> new BundleError(path, f.line(), f.column(), f.message())).toList();
    }
}
