package io.signalman;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

/**
 * Writes a rules folder with some of its rules removed, each cut at the span Drools' own parser
 * gives it: what is left of a file is its package, imports and globals, and the rules kept.
 */
public final class RuleDropper {

    /** One rule of a bundle: its file (relative to the rules folder) and its name. */
    public record RuleRef(String file, String name) {
    }

    private RuleDropper() {
    }

    /** Every rule of every DRL file under {@code rules}, in sorted file order, then file order. */
    public static List<RuleRef> rules(Path rules) {
        List<RuleRef> out = new ArrayList<>();
        for (Path f : drlFiles(rules)) {
            String file = rules.relativize(f).toString().replace('\\', '/');
            parse(f).getRules().forEach(r -> out.add(new RuleRef(file, r.getName())));
        }
        return out;
    }

    /** Rewrites every DRL file under {@code rules} without the rules named in {@code drop}. */
    public static void drop(Path rules, Set<RuleRef> drop) {
        for (Path f : drlFiles(rules)) {
            String file = rules.relativize(f).toString().replace('\\', '/');
            String text = read(f);
            StringBuilder kept = new StringBuilder();
            int at = 0;
            for (RuleDescr r : parse(f).getRules()) {
                if (drop.contains(new RuleRef(file, r.getName()))) {
                    kept.append(text, at, r.getStartCharacter());
                    at = r.getEndCharacter();
                }
            }
            kept.append(text.substring(at));
            try {
                Files.writeString(f, kept.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Removes every pack's {@code scenarios/}: they state what the full rules decide, so the gate
     * would rightly refuse a bundle with rules dropped; the tests that drop rules test the engine.
     */
    public static void dropScenarios(Path rules) {
        try (Stream<Path> walk = Files.walk(rules)) {
            List<Path> scenarios = walk.filter(p -> p.getParent() != null && p.getParent().getFileName() != null
                    && p.getParent().getFileName().toString().equals("scenarios")).toList();
            for (Path f : scenarios) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> drlFiles(Path rules) {
        try (Stream<Path> walk = Files.walk(rules)) {
            return walk.filter(p -> p.toString().endsWith(".drl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PackageDescr parse(Path f) {
        DrlParser parser = new DrlParser();
        try {
            PackageDescr d = parser.parse(false, read(f));
            if (parser.hasErrors() || d == null) {
                throw new IllegalStateException(f + " does not parse: " + parser.getErrors());
            }
            return d;
        } catch (DroolsParserException e) {
            throw new IllegalStateException(f + " does not parse", e);
        }
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
