package io.signalman;

import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.http.ServerConfig;
import io.signalman.packs.Packs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Compiled bundles shared by the tests: compiling is the slow part, so each is compiled once.
 *
 * <p>The live {@code rules/} and {@code replay-fixtures/} belong to analysts: an intended change
 * is recorded with {@code signalman replay --accept}, and no Java test may pin it. Java tests
 * prove the platform on the <em>seed bundle</em>: a frozen copy of the bundle and history as
 * shipped (the seeds' behaviour), under {@code src/test/resources/seed-bundle}. The seeds'
 * hand-written reference routers are compared with it, never with the live rules. Only the
 * tests of the analysts' own loop ({@code GoldenHistoryTest}, the shipped scenarios) read
 * {@link #LIVE_RULES} and {@link #LIVE_FIXTURES}.
 */
public final class TestBundles {

    /** The frozen seed bundle and its history; see src/test/resources/seed-bundle/README.md. */
    public static final Path SEED = Path.of("src/test/resources/seed-bundle");
    /** The seed bundle's rules (what {@link #shipped()} compiles). */
    public static final Path RULES = SEED.resolve("rules");
    /** The seed bundle's golden history. */
    public static final Path FIXTURES = SEED.resolve("replay-fixtures");
    /** The seed's broker history, the golden history's main broker file. */
    public static final Path BROKER_HISTORY = FIXTURES.resolve("broker/history.jsonl");
    /** The analysts' live bundle: whatever rules/ holds now. */
    public static final Path LIVE_RULES = Path.of("rules");
    /** The analysts' live golden history. */
    public static final Path LIVE_FIXTURES = Path.of("replay-fixtures");
    /** A broker message the seed routes to VP Trading and keeps in memory: the tests' ordinary decision. */
    public static final String TRADE_EXECUTED = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
            + " \"type\": \"event\", \"subtype\": \"trade.executed\"}";

    private static RuleBundle shipped;
    private static RuleBundle live;

    private TestBundles() {
    }

    /** The seed bundle (the rules as shipped, frozen under src/test/resources), compiled once per test JVM. */
    public static synchronized RuleBundle shipped() {
        if (shipped == null) {
            shipped = compile(RULES);
        }
        return shipped;
    }

    /** The analysts' live rules/, compiled once per test JVM (only for tests of the analysts' loop). */
    public static synchronized RuleBundle live() {
        if (live == null) {
            live = compile(LIVE_RULES);
        }
        return live;
    }

    /**
     * A server on a free port serving the seed bundle, its gate replaying the seed's history (which
     * passes by construction), so that an intended change to the live rules never fails an HTTP
     * test that is not about the gate.
     */
    public static ServerConfig seedServer() {
        return ServerConfig.defaults().withPort(0).withRules(RULES).withFixtures(FIXTURES);
    }

    /**
     * A server on a free port serving a copy of the seed bundle a test may change (through the
     * workbench, a reload or its files): the rules in {@code dir}/rules, the history its gate
     * replays in {@code dir}/fixtures, its data in {@code dir}/data. The rules are only read when the
     * server starts, so a test may still edit {@code rules()} before.
     */
    public static ServerConfig editableSeedServer(Path dir) {
        Path rules = copyOfRules(dir);
        copyTree(FIXTURES, dir.resolve("fixtures"));
        return ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(dir.resolve("fixtures"))
                .withData(dir.resolve("data"));
    }

    public static RuleBundle compile(Path rules) {
        try {
            return Packs.compiler().compile(BundleFiles.read(rules));
        } catch (BundleException e) {
            throw new AssertionError("bundle " + rules + " does not compile: " + e.errors(), e);
        }
    }

    /** The errors compiling {@code rules} gives: none when it compiles. */
    public static List<BundleError> compileErrors(Path rules) {
        try {
            Packs.compiler().compile(BundleFiles.read(rules));
            return List.of();
        } catch (BundleException e) {
            return e.errors();
        }
    }

    /** A copy of the seed bundle's rules in {@code dir}, for tests that edit rules. */
    public static Path copyOfRules(Path dir) {
        return copyOfRules(RULES, dir);
    }

    /** The rule of the seed's tool route, whose decisions {@link #copyOfRulesWithToolSmith} changes. */
    public static final String TOOL_RULE = "tool messages go to the Sr. Director of Tooling at low priority";
    /** The seed's tool route as shipped: tool messages go to the Sr. Director of Tooling. */
    public static final String TOOL_ROUTE = "decide.primary(\"sr-director-tooling\")";
    /** The one change of a rule the replay and reload tests make: tool messages also go to the tool smith. */
    public static final String TOOL_ROUTE_WITH_TOOL_SMITH = "decide.primary(\"sr-director-tooling\", \"tool-smith\")";

    /**
     * A copy of the seed bundle's rules in {@code dir} with one rule changed ({@link #TOOL_ROUTE_WITH_TOOL_SMITH}):
     * it changes the decisions of the history's tool messages and of nothing else.
     */
    public static Path copyOfRulesWithToolSmith(Path dir) {
        Path rules = copyOfRules(dir);
        edit(rules.resolve("broker/routing.drl"), TOOL_ROUTE, TOOL_ROUTE_WITH_TOOL_SMITH);
        return rules;
    }

    /** A copy of {@link #BROKER_HISTORY} at {@code file}, its folders made, for a test that rewrites it. */
    public static Path copyOfBrokerHistory(Path file) {
        try {
            Files.createDirectories(file.getParent());
            return Files.copy(BROKER_HISTORY, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of the rules folder {@code rules} in {@code dir}/rules. */
    public static Path copyOfRules(Path rules, Path dir) {
        Path target = dir.resolve("rules");
        copyTree(rules, target);
        return target;
    }

    /** Copies the folder {@code from} and everything in it to {@code to}. */
    public static void copyTree(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A port free on 127.0.0.1 a moment ago (for servers that need it named in advance, like cluster members). */
    public static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces the first occurrence of {@code from} in a file, failing if it is not there. */
    public static void edit(Path file, String from, String to) {
        try {
            String text = Files.readString(file);
            if (!text.contains(from)) {
                throw new AssertionError(file + " does not contain: " + from);
            }
            Files.writeString(file, text.replaceFirst(java.util.regex.Pattern.quote(from),
                    java.util.regex.Matcher.quoteReplacement(to)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The 1-based line of the first line of {@code file} that contains {@code text}; failing, with the
     * file's lines, when none does (the line a test expects an error at is read from the file it
     * edited, so an edit of the seed does not silently move it).
     */
    public static int lineOf(Path file, String text) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError(file + " has no line containing " + text + ":\n" + String.join("\n", lines));
    }

    /**
     * The JVM option that points a child process at the suite's shared cache of compiled rules
     * ({@code signalman.compiled.cache}, set by the build for the test JVM), with a leading space;
     * empty when the test JVM has none. Every server of the suite then compiles each unit once.
     */
    public static String compiledCacheOption() {
        String dir = System.getProperty("signalman.compiled.cache");
        return dir == null || dir.isBlank() ? "" : " -Dsignalman.compiled.cache=" + Path.of(dir).toAbsolutePath();
    }

    /**
     * A broker rule file of one first-match rule deciding {@code openclaw}, with the broker's facts
     * imported: {@code when} is the condition's lines as written (each indented by four).
     */
    public static String brokerRule(String name, int salience, String when) {
        return """
                package signalman.broker;

                import io.signalman.broker.Message;
                import io.signalman.broker.AgentCard;

                global io.signalman.broker.Route decide;

                rule "%s"
                    @reason("a rule under test")
                    agenda-group "route" activation-group "route" salience %d
                when
                %s
                then
                    decide.primary("openclaw");
                end
                """.formatted(name, salience, when.stripTrailing());
    }
}
