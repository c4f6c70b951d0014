package io.signalman.cli;

import io.signalman.Await;
import io.signalman.TestBundles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code signalman serve} in a JVM of its own, as an operator runs it: the jar's own main class
 * ({@link Main}) on the test class path, so signals reach a real process. Its stdout and stderr
 * (the logs included) go to {@code serve.log} in its data folder, to be searched.
 */
final class ServeProcess implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("signalman serving http://[^:]+:(\\d+)");
    private static final Pattern ADMIN = Pattern.compile("signalman admin endpoints on http://[^:]+:(\\d+) only");

    private final Process process;
    private final Path log;

    private ServeProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code serve --port 0 --data DATA} plus {@code args}, and waits until it listens. */
    static ServeProcess start(Path data, Map<String, String> env, String... args) {
        return launch(data, env, args).awaitServing(Duration.ofSeconds(90));
    }

    /**
     * Starts {@code serve --port 0 --data DATA} plus {@code args} (a flag given again overrides,
     * e.g. {@code --rules}) without waiting, so that several can start at once.
     */
    static ServeProcess launch(Path data, Map<String, String> env, String... args) {
        return launch(data, env, List.of(), args);
    }

    /** {@link #launch(Path, Map, String...)} with JVM options first (a test seam's system properties). */
    static ServeProcess launch(Path data, Map<String, String> env, List<String> jvm, String... args) {
        return launch(data, data.resolve("serve.log"), env, jvm, args);
    }

    /** The same, printing to {@code log} (outside the data folder, when that is a disk the test fills). */
    static ServeProcess launch(Path data, Path log, Map<String, String> env, List<String> jvm, String... args) {
        // C1 only: a test's server lives seconds, and C2's compiling was 40% of its start's CPU. The serial
        // collector: a 256 MB heap needs no GC threads of its own on a machine the suite keeps busy.
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        cmd.addAll(jvm);
        String cache = TestBundles.compiledCacheOption().strip();
        if (!cache.isEmpty()) {
            cmd.add(cache);
        }
        cmd.addAll(ChildJvm.classPathOptions());
        cmd.addAll(List.of(Main.class.getName(), "serve", "--port", "0", "--data", data.toString(),
                "--rules", TestBundles.RULES.toString(), "--fixtures", TestBundles.FIXTURES.toString()));
        cmd.addAll(List.of(args));
        // To a file, not a pipe: what the process printed last is there once it has exited.
        try {
            Files.createDirectories(data);
            Files.createDirectories(log.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SIGNALMAN_"));
        pb.environment().putAll(env);
        try {
            return new ServeProcess(pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the process listens; fails with its output if it exits or takes longer than {@code timeout}. */
    ServeProcess awaitServing(Duration timeout) {
        Await.until(timeout, "the server to listen:\n" + output(), () -> find(SERVING) != null || !process.isAlive());
        if (find(SERVING) == null) {
            throw new AssertionError("serve did not start:\n" + output());
        }
        return this;
    }

    int port() {
        return Integer.parseInt(find(SERVING));
    }

    /** The admin listener's port, once the process has printed it (right after the public one). */
    int adminPort() {
        Await.until(Duration.ofSeconds(30), "the admin listener's port", () -> find(ADMIN) != null);
        return Integer.parseInt(find(ADMIN));
    }

    Process process() {
        return process;
    }

    /** Whether the process printed {@code text} so far. */
    boolean printed(String text) {
        return output().contains(text);
    }

    /** Everything the process printed so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the process without warning (kill -9) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    /** Waits for the process to exit and returns its exit code. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the server did not exit within " + timeout + ":\n" + output());
        }
        return process.exitValue();
    }

    private String find(Pattern p) {
        Matcher m = p.matcher(output());
        return m.find() ? m.group(1) : null;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
