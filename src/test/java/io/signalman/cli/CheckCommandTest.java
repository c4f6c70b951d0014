package io.signalman.cli;

import static io.signalman.TestBundles.lineOf;
import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void theShippedRulesCheckOk() {
        // When the repository's own rules are checked
        Run r = run("check", "rules");

        // Then the check passes and says so
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("ok:"), r::toString);
        assertTrue(r.out().contains("sha256:"), r::toString);
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

    @Test
    void anUnknownCommandExitsTwoWithUsage() {
        // When an unknown command is run
        Run r = run("chekc", "rules");

        // Then it exits 2 and says why, with the usage
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("unknown command \"chekc\""), r::toString);
        assertTrue(r.err().contains("usage: signalman"), r::toString);
    }

    @Test
    void checkWithTwoDirectoriesIsAUsageError() {
        // When check is given more than one directory
        Run r = run("check", "rules", "more-rules");

        // Then it exits 2
        assertEquals(2, r.code(), r::toString);
    }

}
