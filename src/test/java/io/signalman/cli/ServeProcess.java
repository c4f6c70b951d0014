package io.signalman.cli;

import io.signalman.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * (the logs included) are kept, to be searched.
 */
final class ServeProcess implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("signalman serving http://[^:]+:(\\d+)");
    private static final Pattern ADMIN = Pattern.compile("signalman admin endpoints on http://[^:]+:(\\d+) only");

    private final Process process;
    private final List<String> output = new ArrayList<>();

    private ServeProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "serve-process-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code serve --port 0 --data DATA} plus {@code args}, and waits until it listens. */
    static ServeProcess start(Path data, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classPath(), Main.class.getName(), "serve", "--port", "0", "--data", data.toString(),
                "--rules", "rules", "--fixtures", "replay-fixtures"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("SIGNALMAN_"));
        pb.environment().putAll(env);
        ServeProcess p;
        try {
            p = new ServeProcess(pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Await.until(Duration.ofSeconds(90), "the server to listen:\n" + p.output(),
                () -> p.find(SERVING) != null || !p.process.isAlive());
        if (p.find(SERVING) == null) {
            throw new AssertionError("serve did not start:\n" + p.output());
        }
        return p;
    }

    /** Surefire runs tests from a manifest-only jar; the real class path is in this property. */
    private static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    int port() {
        return Integer.parseInt(find(SERVING));
    }

    int adminPort() {
        return Integer.parseInt(find(ADMIN));
    }

    Process process() {
        return process;
    }

    /** Everything the process printed so far. */
    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
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

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                synchronized (output) {
                    output.add(line);
                }
            }
        } catch (IOException e) {
            // The process is gone; what it printed is kept.
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
