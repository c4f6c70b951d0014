package io.signalman.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The hostile-rule corpus, {@code src/test/resources/hostile-rules/<pack>/}: one file per way a
 * rule has been found to smuggle code past a rule checker, each saying on its first line (a DRL
 * file) or in its {@code .expect} file (a decision table) where it must be refused and what it
 * tries. Every payload calls {@link Canary#trip()}.
 *
 * @param pack     the pack folder it belongs in
 * @param file     the corpus file
 * @param line     the line (a table's row) the refusal must name
 * @param liveRaw  whether raw Drools, without Signalman's checks, runs the payload ("live" in the header)
 */
record HostileRules(String pack, Path file, int line, boolean liveRaw, String what) {

    static final Path CORPUS = Path.of("src/test/resources/hostile-rules");

    private static final Pattern HEADER = Pattern.compile("(?://\\s*)?hostile( \\(live in raw Drools\\))?: refused at line "
            + "([0-9]+): (.*)");

    /** The path the file takes in a bundle: {@code broker/escape-in-a-comment.drl}. */
    String bundlePath() {
        return pack + "/" + file.getFileName();
    }

    String text() {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return bundlePath();
    }

    static List<HostileRules> all() {
        try (Stream<Path> files = Files.walk(CORPUS)) {
            return files.filter(f -> f.toString().endsWith(".drl") || f.toString().endsWith(".csv")).sorted()
                    .map(HostileRules::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HostileRules read(Path f) {
        try {
            Path expect = f.toString().endsWith(".drl") ? f : f.resolveSibling(f.getFileName() + ".expect");
            String first = Files.readAllLines(expect, StandardCharsets.UTF_8).get(0);
            Matcher m = HEADER.matcher(first);
            if (!m.matches()) {
                throw new IllegalStateException(expect + ": the first line must say \"hostile: refused at line N: what it tries\"");
            }
            return new HostileRules(f.getParent().getFileName().toString(), f, Integer.parseInt(m.group(2)), m.group(1) != null,
                    m.group(3));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
