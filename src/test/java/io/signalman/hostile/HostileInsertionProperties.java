package io.signalman.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.engine.BundleCompiler;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.PackDefinition;
import io.signalman.engine.RuleBundle;
import io.signalman.rulelang.Finding;
import io.signalman.rulelang.RuleFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Escapes and forbidden calls placed at random positions in the shipped rules: wherever one lands,
 * the rule reader refuses the file at a line of it, or (where it landed in a comment or a text,
 * so that it is only words) the whole pipeline compiles and decides without running it.
 */
class HostileInsertionProperties {

    /** What an attacker pastes; each payload calls the {@link Canary}. */
    private static final List<String> INSERTIONS = List.of(
            "// \\u000a io.signalman.hostile.Canary.trip();",
            "\\uuuu000a io.signalman.hostile.Canary.trip();",
            "\\u0022 + io.signalman.hostile.Canary.trip() + \\u0022",
            "/* \\u002a\\u002f io.signalman.hostile.Canary.trip(); /* */",
            "\\u0043anary",
            "'x\" + io.signalman.hostile.Canary.trip() + \"'",
            " io.signalman.hostile.Canary.trip(); ",
            "*/ static { io.signalman.hostile.Canary.trip(); } /*",
            "\"); io.signalman.hostile.Canary.trip(); (\"",
            "\\\"); io.signalman.hostile.Canary.trip(); (\\\"",
            " java.nio.file.Files.delete(null); ",
            " System.exit(3); ",
            " salience ( io.signalman.hostile.Canary.trip().length() ) ",
            " Message( subtype == io.signalman.hostile.Canary.trip() ) ",
            "\u202e",
            "\"\"\"");

    private static Path rules;
    private static BundleCompiler compiler;

    @BeforeContainer
    static void copyRules() throws IOException {
        Path dir = Files.createTempDirectory("hostile-insertions");
        rules = TestBundles.copyOfRules(dir);
        compiler = Packs.compiler();
    }

    @AfterContainer
    static void forgetRules() throws IOException {
        try (Stream<Path> all = Files.walk(rules.getParent())) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Provide
    Arbitrary<String> shippedDrl() {
        try (Stream<Path> files = Files.walk(TestBundles.RULES)) {
            return Arbitraries.of(files.filter(f -> f.toString().endsWith(".drl"))
                    .map(f -> TestBundles.RULES.relativize(f).toString().replace('\\', '/')).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> insertion() {
        return Arbitraries.of(INSERTIONS);
    }

    @Property(tries = 60)
    void aHostileInsertionAnywhereIsRefusedAtALineOfTheFileOrRunsNothing(@ForAll("shippedDrl") String path,
                                                                         @ForAll @IntRange(min = 0, max = 1_000_000) int at,
                                                                         @ForAll("insertion") String insertion) throws Exception {
        String text = Files.readString(TestBundles.RULES.resolve(path), StandardCharsets.UTF_8);
        int pos = at % (text.length() + 1);
        String hostile = text.substring(0, pos) + insertion + text.substring(pos);
        PackDefinition pack = Packs.definitions().stream().filter(d -> d.includes(path)).findFirst().orElseThrow();
        int before = Canary.trips();

        RuleFile read = RuleFile.read(hostile, pack.vocabulary());

        List<Finding> refused = read.parsed() ? read.errors() : read.syntaxErrors();
        long lines = hostile.lines().count();
        if (!refused.isEmpty()) {
            refused.forEach(f -> assertTrue(f.line() >= 0 && f.line() <= lines + 1, () -> path + ": " + f));
        } else {
            compileAndDecide(path, hostile);
        }
        assertEquals(before, Canary.trips(), () -> "inserted at " + pos + " of " + path + ": " + insertion);
        assertFalse(Canary.fileLeft());
    }

    /** The whole pipeline, for an insertion the reader accepted: it may still be refused, but nothing may run. */
    private static synchronized void compileAndDecide(String path, String hostile) throws IOException {
        Path file = rules.resolve(path);
        String original = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, hostile, StandardCharsets.UTF_8);
        try {
            RuleBundle b = compiler.compile(BundleFiles.read(rules));
            Packs.BROKER.decide(b, new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "critical"), "event",
                    "trade.executed", null), false);
        } catch (BundleException refused) {
            // refused by a later line of defence, or by a lint: either way nothing ran (asserted by the caller)
        } finally {
            Files.writeString(file, original, StandardCharsets.UTF_8);
        }
    }
}
