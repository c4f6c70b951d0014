package io.signalman.cli;

import io.signalman.TestBundles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The class path and JVM options of the servers the suite starts as processes, with a
 * class-data-sharing archive once one is ready: the classes a server loads at start (Vert.x,
 * Drools, Jackson, Signalman's own), parsed and verified once for the whole suite instead of once
 * per process. A child's start cost about 4.7 s of CPU without it and a third less with it, and
 * the suite starts dozens of them on two cores.
 *
 * <p>The JVM archives classes only from jars, so the class path's directories (the compiled main
 * and test classes) are copied into one jar first. One test JVM builds the archive, in the
 * background, from a server it starts and stops for the purpose; until it is ready (or if building
 * it fails, or the JVM refuses it) children start exactly as before, from the plain class path. The
 * archive is keyed by the class path's contents, so a rebuilt class makes a new one.
 */
final class ChildJvm {

    private static final Path DIR = Path.of("target", "child-cds").toAbsolutePath();
    private static final Path JAR = DIR.resolve("classes.jar");
    private static final Path ARCHIVE = DIR.resolve("classes.jsa");
    private static final Path STAMP = DIR.resolve("stamp");
    private static final Pattern SERVING = Pattern.compile("signalman serving http://[^:]+:(\\d+)");
    private static final String KEY = key(plainClassPath());
    private static volatile boolean started;

    private ChildJvm() {
    }

    /**
     * What goes between {@code java} and the main class: {@code -cp} and its path, preceded by the
     * archive's options when the archive for this class path is ready.
     */
    static List<String> classPathOptions() {
        startBuilding();
        if (ready()) {
            return List.of("-XX:SharedArchiveFile=" + ARCHIVE, "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-cp", archivedClassPath());
        }
        return List.of("-cp", plainClassPath());
    }

    /** Surefire runs tests from a manifest-only jar; the real class path is in this property. */
    static String plainClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static boolean ready() {
        try {
            return Files.isRegularFile(ARCHIVE) && Files.isRegularFile(STAMP) && Files.readString(STAMP).equals(KEY);
        } catch (IOException e) {
            return false;
        }
    }

    /** The jar of the directories first (the archive's own class path must be a prefix), then every jar. */
    private static String archivedClassPath() {
        List<String> parts = new ArrayList<>(List.of(JAR.toString()));
        for (String e : entries(plainClassPath())) {
            if (!Files.isDirectory(Path.of(e))) {
                parts.add(e);
            }
        }
        return String.join(java.io.File.pathSeparator, parts);
    }

    private static List<String> entries(String classPath) {
        return Stream.of(classPath.split(java.io.File.pathSeparator)).filter(s -> !s.isEmpty()).toList();
    }

    private static synchronized void startBuilding() {
        if (started || ready()) {
            started = true;
            return;
        }
        started = true;
        Thread t = new Thread(ChildJvm::build, "child-cds-archive");
        t.setDaemon(true);
        t.start();
    }

    /** Under a lock shared by the test JVMs: whichever gets it builds, the others go on without. */
    private static void build() {
        try {
            Files.createDirectories(DIR);
            try (FileChannel ch = FileChannel.open(DIR.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = ch.tryLock()) {
                if (lock == null || ready()) {
                    return;
                }
                Files.deleteIfExists(STAMP);
                writeJar();
                if (dump()) {
                    Files.writeString(STAMP, KEY);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("child JVMs start without a class-data archive: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every class and resource of the class path's directories, the first directory winning as on a class path. */
    private static void writeJar() throws IOException {
        Path tmp = DIR.resolve("classes.jar.tmp");
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp))) {
            for (String e : entries(plainClassPath())) {
                Path root = Path.of(e);
                if (!Files.isDirectory(root)) {
                    continue;
                }
                List<Path> files;
                try (Stream<Path> s = Files.walk(root)) {
                    files = s.filter(f -> !f.equals(root)).sorted().toList();
                }
                // Directories get entries of their own, as a packaged jar has them: a resource folder
                // is looked up by name (the database migrations are found that way).
                for (Path f : files) {
                    boolean folder = Files.isDirectory(f);
                    String name = root.relativize(f).toString().replace(java.io.File.separatorChar, '/') + (folder ? "/" : "");
                    if (seen.add(name)) {
                        out.putNextEntry(new JarEntry(name));
                        if (!folder) {
                            Files.copy(f, out);
                        }
                        out.closeEntry();
                    }
                }
            }
        }
        Files.move(tmp, JAR, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * A server on the archived class path that starts, routes a broker message and stops on SIGTERM,
     * its loaded classes written to the archive as it exits. True when the archive was written.
     */
    /** The port the server's log says it serves on, or null before it does. */
    private static String servingPort(Path log) {
        try {
            Matcher m = SERVING.matcher(Files.readString(log, StandardCharsets.UTF_8));
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean dump() throws IOException, InterruptedException {
        Path tmp = DIR.resolve("classes.jsa.tmp");
        Files.deleteIfExists(tmp);
        Path data = Files.createTempDirectory(DIR, "data");
        Path log = DIR.resolve("dump.log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:ArchiveClassesAtExit=" + tmp));
        String cache = TestBundles.compiledCacheOption().strip();
        if (!cache.isEmpty()) {
            cmd.add(cache);
        }
        cmd.addAll(List.of("-cp", archivedClassPath(), Main.class.getName(), "serve", "--port", "0", "--data",
                data.toString(), "--rules", TestBundles.RULES.toAbsolutePath().toString(), "--fixtures",
                TestBundles.FIXTURES.toAbsolutePath().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SIGNALMAN_"));
        Process p = pb.start();
        try {
            // Its port once it serves; "" when it exited first. No archive when neither comes in time.
            String port;
            try {
                port = io.signalman.Await.value(Duration.ofSeconds(120), "the archiving server to serve", () -> {
                    String served = servingPort(log);
                    return served != null ? served : p.isAlive() ? null : "";
                });
            } catch (AssertionError slow) {
                return false;
            }
            if (port.isEmpty()) {
                return false;
            }
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/broker/route"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(TestBundles.TRADE_EXECUTED)).build(), HttpResponse.BodyHandlers.discarding());
            p.destroy();
            if (!p.waitFor(120, TimeUnit.SECONDS) || !Files.isRegularFile(tmp)) {
                return false;
            }
        } finally {
            p.destroyForcibly();
            deleteTree(data);
        }
        Files.move(tmp, ARCHIVE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A digest of the class path's entries: each file's name, size and modification time. */
    private static String key(String classPath) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(System.getProperty("java.home").getBytes(StandardCharsets.UTF_8));
            for (String e : entries(classPath)) {
                Path p = Path.of(e);
                List<Path> files;
                if (Files.isDirectory(p)) {
                    try (Stream<Path> s = Files.walk(p)) {
                        files = s.filter(Files::isRegularFile).sorted().toList();
                    }
                } else {
                    files = Files.exists(p) ? List.of(p) : List.of();
                }
                for (Path f : files) {
                    FileTime t = Files.getLastModifiedTime(f);
                    d.update((f + "\0" + Files.size(f) + "\0" + t.toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
