package io.signalman.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container image that {@code make image} builds (target/signalman-image.tar, an OCI layout)
 * runs with no container runtime: its layers are applied in order into a folder, and its own
 * entrypoint runs there under {@code chroot} as the image's user, with the image's environment and
 * nothing of the build machine's but the kernel, {@code /proc} and four device nodes.
 *
 * <p>Needs root (for chroot and mount), or {@code sudo -n}: CI runs as root. Without either the test
 * fails and says so; it is never skipped. {@code make test} builds the image first.
 */
class ImageTest {

    static final Path TAR = Path.of("target", "signalman-image.tar");
    static final String USER = "65532:65532";
    static final String DATA = "/var/lib/signalman/data";
    static final String RULES = "/etc/signalman/rules";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path work;
    private static Path root;
    private static JsonNode config;
    /** Mount points inside the root, in the order mounted (unmounted in reverse). */
    private static final Deque<Path> MOUNTS = new ArrayDeque<>();

    @BeforeAll
    static void unpack() throws Exception {
        if (!Files.isRegularFile(TAR)) {
            fail(TAR + " is missing: run make image first (make test does)");
        }
        if (!root() && !sudo()) {
            fail("ImageTest runs the image under chroot, which needs root: run it as root or with "
                    + "passwordless sudo (CI runs as root)");
        }
        work = Files.createTempDirectory(Path.of("target"), "image-test-").toAbsolutePath();
        Path layout = Files.createDirectories(work.resolve("oci"));
        root = Files.createDirectories(work.resolve("root"));
        expectOk(List.of("tar", "-xf", TAR.toAbsolutePath().toString(), "-C", layout.toString()));

        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        assertEquals(2, index.path("schemaVersion").asInt(), "index.json: " + index);
        JsonNode manifest = JSON.readTree(blob(layout, index.path("manifests").path(0).path("digest").asText()).toFile());
        assertEquals("application/vnd.oci.image.manifest.v1+json", manifest.path("mediaType").asText());
        config = JSON.readTree(blob(layout, manifest.path("config").path("digest").asText()).toFile());
        for (JsonNode layer : manifest.path("layers")) {
            apply(blob(layout, layer.path("digest").asText()), layer.path("mediaType").asText());
        }
    }

    @AfterAll
    static void clean() throws Exception {
        List<String> stuck = new ArrayList<>();
        while (!MOUNTS.isEmpty()) {
            Path m = MOUNTS.pop();
            if (run(sudo("umount", m.toString()), Duration.ofSeconds(30)).code != 0
                    && run(sudo("umount", "-l", m.toString()), Duration.ofSeconds(30)).code != 0) {
                stuck.add(m.toString());
            }
        }
        if (!stuck.isEmpty()) {
            // Never delete through a mount: /dev and /proc of the host are behind them.
            fail("could not unmount " + stuck + "; " + work + " is left as it is");
        }
        if (work != null && mountedUnder(work).isEmpty()) {
            run(sudo("rm", "-rf", work.toString()), Duration.ofSeconds(60));
        }
    }

    @Test
    void the_image_configuration_runs_the_server_as_a_non_root_user_with_its_data_in_a_volume() throws IOException {
        JsonNode c = config.path("config");
        List<String> entrypoint = strings(c.path("Entrypoint"));
        assertEquals("/opt/java/bin/java", entrypoint.get(0), "entrypoint " + entrypoint);
        assertEquals("io.signalman.cli.Main", entrypoint.get(entrypoint.size() - 1), "entrypoint " + entrypoint);
        assertTrue(entrypoint.contains("-Dfile.encoding=UTF-8"), "the rules are UTF-8 whatever the locale: " + entrypoint);
        assertEquals(List.of("serve"), strings(c.path("Cmd")));
        assertEquals(USER, c.path("User").asText());
        assertTrue(Files.readString(root.resolve("etc/passwd")).contains("signalman:x:65532:65532:"),
                "the user has a name in /etc/passwd");
        assertEquals(Set.of("8080/tcp", "5701/tcp"), fieldNames(c.path("ExposedPorts")));
        assertEquals(Set.of(DATA, RULES), fieldNames(c.path("Volumes")));

        Map<String, String> env = env();
        assertEquals("0.0.0.0", env.get("SIGNALMAN_HOST"));
        assertEquals("8080", env.get("SIGNALMAN_PORT"));
        assertEquals(DATA, env.get("SIGNALMAN_DATA"));
        assertEquals(RULES, env.get("SIGNALMAN_RULES"));
        assertEquals("C.UTF-8", env.get("LANG"));
        assertTrue(Files.isDirectory(root.resolve(RULES.substring(1)).resolve("signals")), "the default rules are in the image");
        assertTrue(Files.getPosixFilePermissions(root.resolve(DATA.substring(1))).contains(PosixFilePermission.OTHERS_WRITE),
                "the user (not the owner, root) can write the image's data folder");
        for (String dir : List.of(RULES, RULES + "/signals", RULES + "/signals/scenarios")) {
            assertTrue(Files.getPosixFilePermissions(root.resolve(dir.substring(1))).containsAll(Set.of(
                    PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE)),
                    dir + ": the user replaces rules files (activations, a cluster member's mirror) in the image's folder");
        }
        assertTrue(Files.isExecutable(root.resolve("opt/java/bin/java")));
        assertTrue(Files.isRegularFile(root.resolve("lib64/ld-linux-x86-64.so.2")), "the dynamic loader is in the image");
        assertTrue(Files.notExists(root.resolve("bin/sh")), "no shell: the runtime, its libraries and the application only");
    }

    @Test
    void the_entrypoint_prints_the_usage_inside_the_image() throws Exception {
        mountSystem();
        List<String> argv = new ArrayList<>(strings(config.path("config").path("Entrypoint")));
        argv.add("--help");
        Result r = run(chroot(argv), env(), Duration.ofSeconds(60));
        assertEquals(0, r.code, r.output);
        assertTrue(r.output.startsWith("usage: signalman <command>"), r.output);
        assertTrue(r.output.contains("SIGNALMAN_<FLAG>"), r.output);
    }

    @Test
    void serve_answers_ready_from_a_mounted_rules_folder_as_the_image_user() throws Exception {
        mountSystem();
        // A rules folder mounted over the image's (one pack, for a short start); its golden history beside it.
        Path rules = Files.createDirectories(work.resolve("mounted-rules"));
        copyTree(Path.of("rules", "broker"), rules.resolve("broker"));
        Path fixtures = Files.createDirectories(work.resolve("mounted-fixtures"));
        copyTree(Path.of("replay-fixtures", "broker"), fixtures.resolve("broker"));
        bind(rules, RULES);
        Path fixturesInside = Files.createDirectories(root.resolve("etc/signalman/test-fixtures"));
        bind(fixtures, "/etc/signalman/test-fixtures");
        run(sudo("chmod", "-R", "a+rwX", rules.toString(), fixtures.toString()), Duration.ofSeconds(10));

        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> env = env();
        env.put("SIGNALMAN_HOST", "127.0.0.1");
        env.put("SIGNALMAN_PORT", Integer.toString(port));
        env.put("SIGNALMAN_FIXTURES", "/" + root.relativize(fixturesInside));
        env.put("SIGNALMAN_ADMIN_TOKEN", "image-test-admin-token-0123456789");
        // C1 only, as the rest of the suite: the compile at start is most of this test's time.
        env.put("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1");
        Path log = work.resolve("serve.log");
        ProcessBuilder pb = new ProcessBuilder(chroot(strings(config.path("config").path("Entrypoint"))))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.command().addAll(strings(config.path("config").path("Cmd")));
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
            int ready = -1;
            while (System.nanoTime() < deadline && p.isAlive()) {
                ready = status(http, port, "/ready");
                if (ready == 200) {
                    break;
                }
                Thread.sleep(250);
            }
            assertEquals(200, ready, "GET /ready inside the image; the server said:\n" + Files.readString(log));
            assertEquals(200, status(http, port, "/health"));
            // The health check compose runs in the container: 0 while the server is ready, 1 with none on its port.
            List<String> probe = List.of("/opt/java/bin/java", "-cp", "/app/classes", "io.signalman.cli.ReadyProbe");
            Result up = run(chroot(probe), env, Duration.ofSeconds(60));
            assertEquals(0, up.code, up.output);
            Map<String, String> elsewhere = new LinkedHashMap<>(env);
            elsewhere.put("SIGNALMAN_PORT", Integer.toString(closedPort()));
            Result down = run(chroot(probe), elsewhere, Duration.ofSeconds(60));
            assertEquals(1, down.code, down.output);
            if (root()) {
                // chroot execs the entrypoint: the process is the JVM, and it is not root.
                String status = Files.readString(Path.of("/proc", Long.toString(p.pid()), "status"));
                assertTrue(status.lines().anyMatch(l -> l.matches("Uid:\\s+65532\\s+65532\\s+65532\\s+65532")), status);
            }
            assertTrue(Files.exists(root.resolve(DATA.substring(1)).resolve("manifest.json")),
                    "the server keeps its data in the image's data folder");
        } finally {
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static int status(HttpClient http, int port, String path) {
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build();
            return http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** /proc and the device nodes a JVM opens; what a container runtime gives every container. */
    private static synchronized void mountSystem() throws Exception {
        Path proc = root.resolve("proc");
        if (MOUNTS.contains(proc)) {
            return;
        }
        Files.createDirectories(proc);
        expectOk(sudo("mount", "-t", "proc", "proc", proc.toString()));
        MOUNTS.push(proc);
        Files.createDirectories(root.resolve("dev"));
        for (String dev : List.of("null", "zero", "random", "urandom")) {
            Path node = root.resolve("dev").resolve(dev);
            if (Files.notExists(node)) {
                Files.createFile(node);
            }
            expectOk(sudo("mount", "--bind", "/dev/" + dev, node.toString()));
            MOUNTS.push(node);
        }
    }

    private static void bind(Path from, String inside) throws Exception {
        Path at = root.resolve(inside.substring(1));
        Files.createDirectories(at);
        expectOk(sudo("mount", "--bind", from.toString(), at.toString()));
        MOUNTS.push(at);
    }

    /** Applies a layer over the root: its whiteouts first (OCI image spec, layer.md), then its files. */
    private static void apply(Path layer, String mediaType) throws Exception {
        assertTrue(mediaType.equals("application/vnd.oci.image.layer.v1.tar+gzip")
                || mediaType.equals("application/vnd.oci.image.layer.v1.tar"), "layer media type " + mediaType);
        Result list = expectOk(List.of("tar", "-tzf", layer.toString()));
        for (String entry : list.output.lines().toList()) {
            Path e = Path.of(entry);
            String name = e.getFileName() == null ? "" : e.getFileName().toString();
            if (!name.startsWith(".wh.")) {
                continue;
            }
            Path dir = e.getParent() == null ? root : root.resolve(e.getParent().toString()).normalize();
            assertTrue(dir.startsWith(root), "a whiteout outside the image: " + entry);
            if (name.equals(".wh..wh..opq")) {
                try (Stream<Path> children = Files.list(dir)) {
                    for (Path child : children.toList()) {
                        delete(child);
                    }
                }
            } else {
                delete(dir.resolve(name.substring(".wh.".length())));
            }
        }
        expectOk(List.of("tar", "-xzf", layer.toString(), "-C", root.toString(), "--exclude=.wh.*",
                "--no-same-owner", "--delay-directory-restore"));
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    private static Path blob(Path layout, String digest) {
        assertTrue(digest.matches("sha256:[0-9a-f]{64}"), "a digest: " + digest);
        return layout.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
    }

    /** The image's environment and nothing else (a container has no other). */
    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : strings(config.path("config").path("Env"))) {
            int eq = kv.indexOf('=');
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return env;
    }

    private static List<String> chroot(List<String> argv) {
        List<String> out = new ArrayList<>(sudo("chroot", "--userspec=" + USER, root.toString()));
        out.addAll(argv);
        return out;
    }

    private static List<String> sudo(String... argv) {
        List<String> out = new ArrayList<>();
        if (!root()) {
            out.addAll(List.of("sudo", "-n", "-E"));
        }
        out.addAll(List.of(argv));
        return out;
    }

    private static boolean sudo() {
        try {
            return run(List.of("sudo", "-n", "true"), Duration.ofSeconds(10)).code == 0;
        } catch (Exception e) {
            return false; // no sudo at all
        }
    }

    private static boolean root() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static List<Path> mountedUnder(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            Path point = Path.of(line.split(" ")[4]);
            if (point.startsWith(dir)) {
                out.add(point);
            }
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Set<String> fieldNames(JsonNode object) {
        Set<String> out = new java.util.TreeSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    record Result(int code, String output) {
    }

    private static Result expectOk(List<String> argv) throws Exception {
        Result r = run(argv, Duration.ofSeconds(120));
        assertEquals(0, r.code, String.join(" ", argv) + ":\n" + r.output);
        return r;
    }

    private static Result run(List<String> argv, Duration timeout) throws Exception {
        return run(argv, null, timeout);
    }

    private static Result run(List<String> argv, Map<String, String> env, Duration timeout) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        if (env != null) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Path out = Files.createTempFile("image-test", ".out");
        try {
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(String.join(" ", argv) + " did not end within " + timeout);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
