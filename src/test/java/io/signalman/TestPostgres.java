package io.signalman;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, throwaway PostgreSQL for tests (never a mock: the map stores are proven against the real database): Debian's {@code postgresql}
 * binaries ({@code make test} installs the package when missing), a cluster initialised in a
 * temporary folder, listening on 127.0.0.1 on a free port, stopped and deleted by {@link #close}.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to, and runs as, {@code nobody}.
 *
 * @param dir  the cluster's folder (its data, its socket and its log)
 * @param bin  the PostgreSQL binaries it runs
 * @param port the port it listens on
 * @param root whether the tests run as root, and so the cluster as {@code nobody}
 */
public record TestPostgres(Path dir, Path bin, int port, boolean root) implements AutoCloseable {

    /** Starts a new cluster with a trusted user {@code signalman} and a database {@code signalman}. */
    public static TestPostgres start() throws IOException, InterruptedException {
        Path bin = binaries();
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("signalman-pg");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path data = dir.resolve("data");
        Files.createDirectory(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        if (root) {
            UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(dir, nobody);
            Files.setOwner(data, nobody);
        }
        int port = TestBundles.freePort();
        TestPostgres pg = new TestPostgres(dir, bin, port, root);
        pg.run(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "signalman", "--auth=trust", "-E", "UTF8",
                "--no-sync");
        pg.run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(), "-w",
                "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
        return pg;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/postgres} (user {@code signalman}, no password). */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            run(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop");
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private void run(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (root) {
            cmd.addAll(List.of("runuser", "-u", "nobody", "--"));
        }
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed:\n" + out);
        }
    }

    private static Path binaries() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.naturalOrder()).orElseThrow(() -> new IllegalStateException("no initdb"));
        } catch (IOException | IllegalStateException e) {
            throw new IllegalStateException("PostgreSQL is not installed: run make test (it installs Debian's postgresql"
                    + " package when missing), or apt-get install postgresql", e);
        } catch (UncheckedIOException e) {
            throw e;
        }
    }
}
