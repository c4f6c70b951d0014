package io.signalman.cli;

import static io.signalman.TestBundles.lineOf;
import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** {@code signalman check [rules-dir]}: exit 1 on errors, warnings printed, {@code file:line:column: message}. */
class CheckCommandTest {

    @TempDir
    Path tmp;

    /** What one run of the command left behind. */
    private record Run(int code, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }
    }

    private static Run run(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(argv, o, e, Map.of());
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A command line, the code it exits with, and what its output and its errors must hold. */
    private static final List<Arguments> COMMAND_LINES = List.of(
            argumentSet("the repository's own rules check ok, and the check says so", List.of("check", "rules"), 0,
                    List.of("ok:", "sha256:"), List.of()),
            argumentSet("an unknown command exits 2 and says why, with the usage", List.of("chekc", "rules"), 2,
                    List.of(), List.of("unknown command \"chekc\"", "usage: signalman")),
            argumentSet("check given more than one directory is a usage error", List.of("check", "rules", "more-rules"), 2,
                    List.of(), List.of()));

    @ParameterizedTest(name = "{argumentSetName}")
    @FieldSource("COMMAND_LINES")
    void aCommandLineExitsWithItsCodeAndSaysWhatItMust(List<String> argv, int code, List<String> out, List<String> err) {
        Run r = run(argv.toArray(String[]::new));

        assertEquals(code, r.code(), r::toString);
        out.forEach(part -> assertTrue(r.out().contains(part), r::toString));
        err.forEach(part -> assertTrue(r.err().contains(part), r::toString));
    }

    @Test
    void aBrokenBundleExitsOneWithLocatedErrors() throws IOException {
        // Given a copy whose trade rule has lost its @reason
        Path rules = copyOfRules(tmp);
        Path drl = rules.resolve("broker/routing.drl");
        edit(drl, "    @reason(\"subtype starts with trade.\")\n", "");
        int ruleLine = lineOf(drl, "rule \"trade messages go to VP Trading\"");

        // When it is checked
        Run r = run("check", rules.toString());

        // Then it exits 1 and prints each error as <dir>/broker/routing.drl:<line>:<col>: error: ...
        assertEquals(1, r.code(), r::toString);
        Pattern located = Pattern.compile(Pattern.quote(rules + "/broker/routing.drl") + ":(\\d+):\\d+: error: .+");
        List<String> errors = r.errLines().stream().filter(l -> located.matcher(l).matches()).toList();
        assertEquals(1, errors.size(), r::toString);
        String line = errors.get(0);
        assertTrue(line.startsWith(rules + "/broker/routing.drl:" + ruleLine + ":"), line);
        assertTrue(line.contains("trade messages go to VP Trading"), line);
        assertTrue(r.err().contains("the bundle is refused"), r::toString);
        assertFalse(r.out().contains("ok:"), r::toString);
    }

    @Test
    void aSalienceTieIsAWarningAndStillExitsZero() {
        // Given a copy where the service rule has the same salience as the offline-service rule
        Path rules = copyOfRules(tmp);
        edit(rules.resolve("broker/routing.drl"), "salience 500", "salience 510");

        // When it is checked
        Run r = run("check", rules.toString());

        // Then it passes, printing one located warning naming both rules
        assertEquals(0, r.code(), r::toString);
        Pattern warning = Pattern.compile(Pattern.quote(rules + "/broker/routing.drl") + ":\\d+:\\d+: warning: .+");
        List<String> warnings = r.outLines().stream().filter(l -> warning.matcher(l).matches()).toList();
        assertEquals(1, warnings.size(), r::toString);
        assertTrue(warnings.get(0).contains("offline services go to VP Engineering and alert openclaw"), warnings.get(0));
        assertTrue(warnings.get(0).contains("service messages go to VP Engineering"), warnings.get(0));
        assertTrue(r.out().contains("ok:"), r::toString);
        assertTrue(r.out().contains("1 warnings"), r::toString);
    }

    @Test
    void aMissingRulesDirectoryExitsOne() {
        // When a directory that does not exist is checked
        Run r = run("check", tmp.resolve("nowhere").toString());

        // Then the check fails
        assertEquals(1, r.code(), r::toString);
    }
}
