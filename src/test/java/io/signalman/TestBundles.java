package io.signalman;

import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Compiled bundles shared by the tests: compiling is the slow part, so each is compiled once. */
public final class TestBundles {

    public static final Path RULES = Path.of("rules");
    public static final Path FIXTURES = Path.of("replay-fixtures");

    private static RuleBundle shipped;

    private TestBundles() {
    }

    /** The repository's own rules/, compiled once per test JVM. */
    public static synchronized RuleBundle shipped() {
        if (shipped == null) {
            shipped = compile(RULES);
        }
        return shipped;
    }

    public static RuleBundle compile(Path rules) {
        try {
            return Packs.compiler().compile(BundleFiles.read(rules));
        } catch (BundleException e) {
            throw new AssertionError("bundle " + rules + " does not compile: " + e.errors(), e);
        }
    }

    /** A copy of the shipped rules in {@code dir}, for tests that edit rules. */
    public static Path copyOfRules(Path dir) {
        Path target = dir.resolve("rules");
        copyTree(RULES, target);
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
}
