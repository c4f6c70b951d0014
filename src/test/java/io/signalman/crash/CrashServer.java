package io.signalman.crash;

import io.signalman.TestBundles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/signalman serve} as an operator runs it, from the built jar ({@code make build}):
 * started on a data directory with an fsync mode, and killed with SIGKILL ({@code kill -9}: the
 * launcher execs the JVM, so the process is the JVM). Its output is appended to one log per run.
 *
 * @param process the launched serve
 * @param log     the log its output is appended to
 * @param from    where in the log this start's output begins
 */
record CrashServer(Process process, Path log, long from) {

    private static final Pattern SERVING = Pattern.compile("signalman serving http://[^:]+:(\\d+)");

    /** Starts {@code bin/signalman serve} and waits until it listens; fails with its output if it does not. */
    static CrashServer start(Path data, String fsync, Path log) throws IOException, InterruptedException {
        Path launcher = Path.of("bin/signalman");
        if (!Files.exists(Path.of("target/signalman.jar"))) {
            throw new IllegalStateException("target/signalman.jar is missing: run make build first");
        }
        List<String> cmd = new ArrayList<>(List.of(launcher.toString(), "serve", "--port", "0", "--data", data.toString(),
                "--fsync", fsync, "--rules", TestBundles.RULES.toString(), "--fixtures", TestBundles.FIXTURES.toString(),
                "--workers", "4"));
        Files.createDirectories(log.getParent());
        long from = Files.exists(log) ? Files.size(log) : 0;
        Files.writeString(log, "---- serve --fsync " + fsync + " on " + data + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("SIGNALMAN_"));
        // A small heap and the serial collector: several of these run on two shared cores.
        pb.environment().put("SIGNALMAN_JAVA_OPTS", "-Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                + io.signalman.TestBundles.compiledCacheOption());
        CrashServer s = new CrashServer(pb.start(), log, from);
        try {
            io.signalman.Await.until(Duration.ofSeconds(180), "serve to listen", () -> s.port() >= 0 || !s.process.isAlive());
        } catch (AssertionError timedOut) {
            // Reported below with the process's output.
        }
        if (s.port() < 0) {
            s.process.destroyForcibly();
            throw new IllegalStateException("serve did not start:\n" + s.output());
        }
        return s;
    }

    /** The port it listens on, once it printed it; -1 before. */
    int port() {
        Matcher m = SERVING.matcher(output());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** What this start printed. */
    String output() {
        try {
            byte[] all = Files.readAllBytes(log);
            return new String(all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** kill -9, and waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the server survived kill -9 for a minute");
        }
    }
}
