package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.hostile.Canary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two lines behind the rule reader, each on its own: the hostile corpus's live payloads are
 * handed straight to the compile step, as if the rule reader had a hole. The generated-Java check
 * refuses every one before javac sees it; with that check switched off too (a package-private
 * seam no production path can reach), the rule class loader still keeps each payload from
 * compiling or linking. Nothing runs either way.
 */
class DefenceInDepthTest {

    private static final Path CORPUS = Path.of("src/test/resources/hostile-rules/broker");
    /** An index of the shipped broker rules: the pack's vocabulary, packages and rules, as a compile has them. */
    private static final DrlIndex BROKER = DrlIndex.of(Packs.BROKER,
            Map.of("broker/routing.drl", bytes(TestBundles.RULES.resolve("broker/routing.drl"))));

    static Stream<Path> livePayloads() throws IOException {
        return Files.list(CORPUS).filter(f -> firstLine(f).contains("live in raw Drools")).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("livePayloads")
    void theGeneratedJavaCheckRefusesWhatTheRuleReaderWouldHaveLetThrough(Path hostile) {
        int before = Canary.trips();

        UnitBuilder.Outcome out = UnitBuilder.build(unitOf(hostile), BROKER, true);

        assertNull(out.built(), "nothing is built");
        assertFalse(out.errors().isEmpty());
        assertEquals(before, Canary.trips(), "the payload ran");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("livePayloads")
    void withBothCheckersMissingTheClassLoaderStillKeepsThePayloadFromRunning(Path hostile) {
        int before = Canary.trips();

        UnitBuilder.Outcome out = UnitBuilder.build(unitOf(hostile), BROKER, false);

        assertNull(out.built(), () -> "built: " + hostile);
        assertTrue(out.errors().stream().anyMatch(e -> e.message().contains("Canary")), () -> "the compiler could not "
                + "resolve the payload's class: " + out.errors());
        assertEquals(before, Canary.trips(), "the payload ran");
    }

    @Test
    void theRuleClassLoaderResolvesTheVocabularyAndDroolsButNotTheRestOfJavaOrSignalman() throws Exception {
        RuleClassLoader loader = new RuleClassLoader(getClass().getClassLoader(), Packs.BROKER.vocabulary(),
                Set.of("signalman.broker"));
        for (String allowed : List.of("io.signalman.broker.Message", "io.signalman.broker.Route", "java.lang.String",
                "java.util.ArrayList", "java.math.BigDecimal", "com.google.re2j.Pattern", "org.drools.model.functions.Predicate1")) {
            assertEquals(allowed, loader.loadClass(allowed).getName());
        }
        for (String refused : List.of("java.nio.file.Files", "java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.System",
                "java.lang.Thread", "java.lang.reflect.Method", "java.io.FileOutputStream", "java.net.URL", "java.util.Scanner",
                "java.util.ServiceLoader", "java.util.regex.Pattern", "io.signalman.http.Server", "io.signalman.hostile.Canary",
                "org.kie.api.KieServices", "org.drools.core.impl.RuleBaseFactory")) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass(refused), refused);
        }
        assertNull(loader.getResource("java/nio/file/Files.class"), "the compiler cannot read it either");
        assertNull(loader.getResource("io/signalman/http/Server.class"));
        assertTrue(loader.getResource("java/lang/String.class") != null);
    }

    /**
     * A unit just compiled is defined as a stored one is, through the rule class loader: its
     * classes cannot link to what a rule may not use even where the compiler was made to accept a
     * call (Drools' own loader for the built module, whose parent is the application's, resolved
     * {@code java.lang.Runtime} for them).
     */
    @Test
    void freshlyCompiledRuleClassesLinkOnlyThroughTheRuleClassLoader(@TempDir Path dir) throws Exception {
        Path plain = dir.resolve("plain.drl");
        Files.writeString(plain, """
                package signalman.broker;

                import io.signalman.broker.Message;

                global io.signalman.broker.Route decide;

                rule "a plain rule"
                    @reason("routes everything")
                    agenda-group "route" activation-group "route" salience 100
                when
                    Message()
                then
                    decide.primary("openclaw");
                end
                """);

        UnitBuilder.Outcome out = UnitBuilder.build(unitOf(plain), BROKER, true);

        assertTrue(out.built() != null && !out.built().models().isEmpty(), () -> out.errors().toString());
        for (Class<?> model : out.built().models()) {
            ClassLoader loader = model.getClassLoader();
            assertTrue(loader instanceof StoredUnitLoader, "defined by " + loader);
            for (String refused : List.of("java.lang.Runtime", "java.util.regex.Pattern", "io.signalman.hostile.Canary")) {
                assertThrows(ClassNotFoundException.class, () -> Class.forName(refused, false, loader), refused);
            }
        }
    }

    /**
     * After fifteen reflective calls the JVM replaces the native accessor of a constructor or
     * method with generated bytecode, defined under the called class's own loader: a rule class's
     * loader must let that bytecode link, or a long-running server fails a decision at random
     * (seen as {@code NoClassDefFoundError: jdk/internal/reflect/ConstructorAccessorImpl}).
     */
    @Test
    void ruleClassesCalledReflectivelyManyTimesKeepWorking() throws Exception {
        RuleClassLoader rules = new RuleClassLoader(getClass().getClassLoader(), Packs.BROKER.vocabulary(),
                Set.of("signalman.broker"));
        String name = ReflectedRuleClass.class.getName();
        byte[] bytes;
        try (var in = getClass().getResourceAsStream("ReflectedRuleClass.class")) {
            bytes = in.readAllBytes();
        }
        Class<?> defined = new ClassLoader(rules) {
            @Override
            protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
                return n.equals(name) ? defineClass(n, bytes, 0, bytes.length) : super.loadClass(n, resolve);
            }
        }.loadClass(name);
        assertTrue(defined.getClassLoader() != getClass().getClassLoader(), "defined under the rule loader");

        var constructor = defined.getConstructor();
        var method = defined.getMethod("twice", int.class);
        for (int i = 0; i < 100; i++) {
            Object instance = constructor.newInstance();
            assertEquals(2 * i, method.invoke(instance, i));
        }
        assertThrows(ClassNotFoundException.class, () -> rules.loadClass("jdk.internal.reflect.Reflection"),
                "only the accessors' superclasses, not the rest of jdk.internal");
    }

    /** One unit of the pack holding only the hostile file, as CompileUnits would cut it. */
    private static CompileUnit unitOf(Path hostile) {
        String text = new String(bytes(hostile), StandardCharsets.UTF_8);
        String resource = CompileUnits.RESOURCES + "signalman/broker/broker%2F" + hostile.getFileName();
        Map<String, String> sources = new LinkedHashMap<>(Map.of(resource, text));
        return new CompileUnit("broker", "broker/" + hostile.getFileName(), sources,
                Map.of(resource, "broker/" + hostile.getFileName()), Map.of(), 1, "hostile-" + hostile.getFileName());
    }

    private static String firstLine(Path f) {
        try (var lines = Files.lines(f)) {
            return lines.findFirst().orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
