package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/signalman} makes the JVM exit on {@code OutOfMemoryError} and gives it a
 * bounded default heap that {@code SIGNALMAN_JAVA_OPTS} replaces. The launcher runs as shipped,
 * from a copy of the layout it expects, with a {@code java} on the PATH that prints what it got.
 */
class LauncherTest {

    @TempDir
    Path root;

    @Test
    void theJvmExitsOnOutOfMemoryAndHasABoundedDefaultHeap() throws Exception {
        String args = launch(Map.of());
        assertTrue(args.startsWith("-XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8 "), args);
        assertTrue(args.contains(" -Xmx1g "), args);
        assertTrue(args.endsWith("-jar " + root.resolve("target/signalman.jar") + " serve --port 0"), args);
    }

    @Test
    void signalmanJavaOptsReplaceTheDefaultHeapButKeepTheExitOnOutOfMemory() throws Exception {
        String args = launch(Map.of("SIGNALMAN_JAVA_OPTS", "-Xmx300m -XX:+UseParallelGC"));
        assertTrue(args.startsWith("-XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8 -Xmx300m -XX:+UseParallelGC -jar "), args);
        assertTrue(!args.contains("-Xmx1g"), args);
    }

    private String launch(Map<String, String> env) throws Exception {
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("target"));
        Files.createDirectories(root.resolve("fakejava"));
        Files.copy(Path.of("bin/signalman"), root.resolve("bin/signalman"));
        Files.write(root.resolve("target/signalman.jar"), new byte[0]);
        Path java = root.resolve("fakejava/java");
        Files.writeString(java, "#!/bin/sh\necho \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("sh", root.resolve("bin/signalman").toString(), "serve", "--port", "0")
                .redirectErrorStream(true);
        pb.environment().remove("SIGNALMAN_JAVA_OPTS");
        pb.environment().put("PATH", root.resolve("fakejava") + ":" + System.getenv("PATH"));
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
