package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code signalman serve}'s flags become the server's configuration. */
class ServeCommandTest {

    @Test
    void theBenchEndpointsAreOffUnlessTheFlagAsksForThem() throws Exception {
        assertFalse(ServeCommand.config(ServeCommand.args(new String[] {"--port", "0"}, Map.of())).benchEndpoints());

        assertTrue(ServeCommand.config(ServeCommand.args(new String[] {"--port", "0", "--bench-endpoints"}, Map.of()))
                .benchEndpoints());
        assertTrue(ServeCommand.config(ServeCommand.args(new String[0], Map.of("SIGNALMAN_BENCH_ENDPOINTS", "true")))
                .benchEndpoints());
    }

    @Test
    void tracingIsOffUnlessAnEndpointIsGivenByFlagOrEnvironment() throws Exception {
        assertFalse(ServeCommand.config(ServeCommand.args(new String[] {"--port", "0"}, Map.of())).tracing().on());

        var flag = ServeCommand.config(ServeCommand.args(new String[] {"--otel-endpoint", "http://collector:4318",
                "--otel-sample-ratio", "0.25"}, Map.of())).tracing();
        assertEquals(java.net.URI.create("http://collector:4318/v1/traces"), flag.endpoint());
        assertEquals(0.25, flag.sampleRatio());
        var env = ServeCommand.config(ServeCommand.args(new String[0], Map.of("SIGNALMAN_OTEL_ENDPOINT",
                "https://otel.example/v1/traces"))).tracing();
        assertEquals(java.net.URI.create("https://otel.example/v1/traces"), env.endpoint());
        assertEquals(1.0, env.sampleRatio());
    }

    @Test
    void aWrongTracingFlagIsAUsageErrorNamingIt() {
        for (String[] argv : new String[][] {{"--otel-endpoint", "collector:4318"}, {"--otel-endpoint", "ftp://collector"},
                {"--otel-sample-ratio", "0.5"}, {"--otel-endpoint", "http://collector:4318", "--otel-sample-ratio", "half"},
                {"--otel-endpoint", "http://collector:4318", "--otel-sample-ratio", "2"}}) {
            Args.UsageException e = org.junit.jupiter.api.Assertions.assertThrows(Args.UsageException.class,
                    () -> ServeCommand.config(ServeCommand.args(argv, Map.of())), String.join(" ", argv));
            assertTrue(e.getMessage().contains("--otel-"), e.getMessage());
        }
    }

    @Test
    void theHelpNamesTheBenchFlagAsBenchOnly() {
        CliRunner.Result r = CliRunner.run("serve", "--help");

        assertTrue(r.out().contains("[--bench-endpoints (serves POST /bench/echo for make bench; never in production)]"),
                r.out());
    }

    @Test
    void withRulesGitARulesFolderInNoGitWorkTreeIsRefusedBeforeAnythingOpens(@TempDir Path dir) throws Exception {
        Path rules = Files.createDirectories(dir.resolve("rules"));
        Assumptions.assumeTrue(new FileRepositoryBuilder().findGitDir(rules.toFile()).getGitDir() == null,
                "nothing above the temporary folder is a Git repository");
        String[] argv = {"serve", "--port", "0", "--rules", rules.toString(), "--data", dir.resolve("data").toString()};
        for (Map<String, String> env : java.util.List.of(Map.of("SIGNALMAN_RULES_GIT", "true"), Map.<String, String>of())) {
            String[] with = env.isEmpty() ? java.util.stream.Stream.concat(java.util.Arrays.stream(argv),
                    java.util.stream.Stream.of("--rules-git")).toArray(String[]::new) : argv;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(with, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), env);

            String said = err.toString(StandardCharsets.UTF_8);
            assertEquals(1, code, said);
            assertTrue(said.contains("--rules-git: the rules folder " + rules + " is not inside a Git work tree"), said);
            assertFalse(Files.exists(dir.resolve("data")), "no data directory was opened");
        }
    }
}
