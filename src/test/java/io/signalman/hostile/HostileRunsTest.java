package io.signalman.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.packs.Packs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A large rule file is compiled in runs of rules (compile units), each run's rules copied into Java
 * of its own: an attack placed where one run ends and the next begins (the first rule of a run,
 * the last rule of the file, a comment opened in one run and closed in the next) must be refused
 * or stay words, exactly as in a file compiled whole. The broker pack here has 165 rules, so its
 * generated file of 150 is cut into runs of at most 64 (rules 0-63, 64-127, 128-149).
 */
class HostileRunsTest {

    private static final int GENERATED = 150;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an escaped newline ending a line comment, first rule of the second run  | 64  | // \\u000a io.signalman.hostile.Canary.trip();
            an escape with many u's, last rule of the file                          | 149 | // \\uuuu000a io.signalman.hostile.Canary.trip();
            a call outright, first rule of the third run                            | 128 | io.signalman.hostile.Canary.trip();
            an escaped star-slash closing a comment early, last rule of a run       | 63  | /* \\u002a\\u002f io.signalman.hostile.Canary.trip(); /* */
            """)
    void anAttackAtTheEdgeOfACompileRunIsRefusedAndRunsNothing(String what, int at, String payload) throws Exception {
        assertRunsNothing(generated(at, "    " + payload + "\n", null));
    }

    /**
     * A block comment opened after one run's last rule and closed after the next run's first rule:
     * in the file as written, that rule is a comment (words), whatever the cutting does with it.
     */
    @ParameterizedTest(name = "a comment across the edge between rules {0} and {1}")
    @CsvSource({"63, 64", "127, 128"})
    void aCommentSpanningTwoRunsHidesTheRuleInsideItAndRunsNothing(int before, int inside) throws Exception {
        String opened = "/* a note that goes on\n";
        RuleBundle compiled = assertRunsNothing(generated(inside, "    io.signalman.hostile.Canary.trip();\n", opened)
                .replace("end\n\n// after " + inside + "\n", "end\n*/\n"));
        // ... and the file compiled, cut into runs, with every rule but the commented one
        assertNotNull(compiled, "the file was refused, so its runs were never compiled");
        assertEquals(GENERATED - 1, compiled.requirePack("broker").rules().stream()
                .filter(r -> r.name().startsWith("generated route ")).count());
        assertFalse(compiled.requirePack("broker").rules().stream().anyMatch(r -> r.name().equals("generated route " + inside)));
    }

    /** Compiles the rules with {@code file} as the broker's generated file and decides; returns the bundle, or null when refused. */
    private RuleBundle assertRunsNothing(String file) throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        Files.writeString(rules.resolve("broker/generated.drl"), file, StandardCharsets.UTF_8);
        int before = Canary.trips();
        RuleBundle b = null;
        try {
            b = Packs.compiler().compile(BundleFiles.read(rules));
            Packs.BROKER.decide(b, new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "critical"), "event",
                    "gen." + (GENERATED - 1), null), false);
        } catch (BundleException refused) {
            // refused: nothing compiled, so nothing ran (asserted below)
        }
        assertEquals(before, Canary.trips(), "the payload ran");
        assertFalse(Canary.fileLeft());
        return b;
    }

    /**
     * The generated rules, rule {@code hostile} with {@code payload} in its consequence; with
     * {@code openedBefore}, that text follows the rule before it (and a marker follows the hostile rule).
     */
    private static String generated(int hostile, String payload, String openedBefore) {
        StringBuilder sb = new StringBuilder("package signalman.broker;\n\nimport io.signalman.broker.Message;\n\n"
                + "global io.signalman.broker.Route decide;\n\n");
        for (int i = 0; i < GENERATED; i++) {
            sb.append("rule \"generated route ").append(i).append("\"\n")
                    .append("    @reason(\"generated subtype gen.").append(i).append("\")\n")
                    .append("    agenda-group \"route\" activation-group \"route\" salience ").append(2000 + i).append('\n')
                    .append("when\n    Message( subtype == \"gen.").append(i).append("\" )\nthen\n")
                    .append(i == hostile ? payload : "")
                    .append("    decide.primary(\"cfo\").fanOut(\"mission-control\");\nend\n\n");
            if (openedBefore != null && i == hostile - 1) {
                sb.append(openedBefore);
            }
            if (openedBefore != null && i == hostile) {
                sb.append("// after ").append(i).append('\n');
            }
        }
        return sb.toString();
    }
}
