package io.signalman.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.drools.model.codegen.ExecutableModelProject;

/**
 * Cuts a pack's DRL into {@link CompileUnit}s (see {@link UnitPolicy}).
 *
 * <p>A unit of a cut pack holds one file, with the rules of other units blanked out (line breaks
 * kept, so every remaining rule keeps its line and column), and, when its package has other
 * files, one context resource with their imports and globals: in DRL those are the package's,
 * so a rule sees them whichever file of the package declares them, and compiled apart it must
 * still see them. The key hashes what the build's result depends on, the Drools version and a
 * format number: a change in a unit's own rules, or in a declaration its package shares,
 * changes its key; a comment between rules, or rules moving to other lines, does not.
 */
final class CompileUnits {

    static final String RESOURCES = "src/main/resources/";
    /** Bump when what a unit's build produces changes for the same sources. */
    private static final String FORMAT = "signalman-units-1";
    private static final String DROOLS = String.valueOf(ExecutableModelProject.class.getPackage().getImplementationVersion());

    private CompileUnits() {
    }

    /** The units of one pack, given its parsed files in sorted path order. */
    static List<CompileUnit> plan(String pack, Collection<DrlFile> files, UnitPolicy policy) {
        int rules = files.stream().mapToInt(f -> f.rules().size()).sum();
        boolean separable = files.stream().allMatch(DrlFile::separable);
        if (!separable || rules < policy.splitAtRules()) {
            Map<String, String> sources = new LinkedHashMap<>();
            Map<String, String> paths = new LinkedHashMap<>();
            List<String> keyed = new ArrayList<>();
            for (DrlFile f : files) {
                sources.put(resource(f), f.text());
                paths.put(resource(f), f.path());
                keyed.addAll(List.of(resource(f), f.text()));
            }
            return List.of(new CompileUnit(pack, "pack " + pack, sources, paths, Map.of(), rules, key(pack, keyed)));
        }
        List<CompileUnit> units = new ArrayList<>();
        for (DrlFile f : files) {
            List<DrlFile> others = files.stream().filter(o -> o != f && o.packageName().equals(f.packageName())).toList();
            List<int[]> runs = f.runs(policy.maxRulesPerUnit());
            for (int[] run : runs) {
                Map<String, String> sources = new LinkedHashMap<>();
                Map<String, List<CompileUnit.Origin>> context = new LinkedHashMap<>();
                sources.put(resource(f), runs.size() == 1 ? f.text() : f.keepingRules(run[0], run[1]));
                if (!others.isEmpty()) {
                    String target = RESOURCES + folder(f.packageName()) + "package-context.drl";
                    List<CompileUnit.Origin> origins = new ArrayList<>();
                    sources.put(target, contextOf(f.packageName(), others, origins));
                    context.put(target, origins);
                }
                String label = f.path() + (runs.size() == 1 ? "" : " rules " + (run[0] + 1) + "-" + run[1]);
                units.add(new CompileUnit(pack, label, sources, Map.of(resource(f), f.path()), context, run[1] - run[0],
                        key(pack, keyOfRun(f, others, run))));
            }
        }
        return units;
    }

    /**
     * What a run's build depends on, without where it is: its package, the declarations of every
     * file of the package, and its rules' text. Comments and blank lines between rules, and the
     * lines rules are on, change no compiled code (a unit is kept only when it built without
     * errors, and errors are located from the sources, which do keep every position), so an edit
     * elsewhere in the file, or a rule added above, leaves the run's key as it was.
     */
    private static List<String> keyOfRun(DrlFile f, List<DrlFile> others, int[] run) {
        List<String> parts = new ArrayList<>(List.of("package", f.packageName()));
        for (DrlFile d : concat(f, others)) {
            parts.add("declarations");
            d.declarations().forEach(s -> parts.add(d.textOf(s)));
        }
        parts.add("rules");
        f.rules().subList(run[0], run[1]).forEach(s -> parts.add(f.textOf(s)));
        return parts;
    }

    private static List<DrlFile> concat(DrlFile f, List<DrlFile> others) {
        List<DrlFile> all = new ArrayList<>(others);
        all.add(0, f);
        return all;
    }

    /**
     * The package's other files' imports and globals, each at the column it has in its file and
     * on a line of its own; {@code origins} receives where each line comes from.
     */
    private static String contextOf(String pkg, List<DrlFile> others, List<CompileUnit.Origin> origins) {
        StringBuilder sb = new StringBuilder();
        if (!pkg.isEmpty()) {
            sb.append("package ").append(pkg).append(";\n");
            origins.add(new CompileUnit.Origin(others.get(0).path(), 0));
        }
        for (DrlFile o : others) {
            for (DrlFile.Span d : o.declarations()) {
                String text = o.text().substring(d.start(), d.end());
                sb.append(" ".repeat(o.columnOf(d))).append(text).append('\n');
                long lines = text.chars().filter(ch -> ch == '\n').count();
                for (int i = 0; i <= lines; i++) {
                    origins.add(new CompileUnit.Origin(o.path(), d.line() + i));
                }
            }
        }
        return sb.toString();
    }

    /**
     * sha-256 over the format, the Drools version, the charset Drools reads the DRL bytes with (the
     * JVM's default: a unit built under another one read non-ASCII text otherwise, and must not be
     * reused), the pack and the parts, each length-prefixed.
     */
    private static String key(String pack, List<String> parts) {
        MessageDigest sha = sha256();
        for (String part : List.of(FORMAT, DROOLS, java.nio.charset.Charset.defaultCharset().name(), pack)) {
            update(sha, part);
        }
        parts.forEach(p -> update(sha, p));
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * Where a file is written in a build: the folder of its package (Drools warns otherwise) and
     * its bundle path with '/' escaped, so no two files of a pack can collide.
     */
    private static String resource(DrlFile f) {
        String name = RESOURCES + folder(f.packageName()) + f.path().replace("%", "%25").replace("/", "%2F");
        // Drools picks a resource's reader by its extension: a decision table arrives here as the
        // DRL read from it, so it is built as DRL.
        return name.endsWith(".drl") ? name : name + ".drl";
    }

    private static String folder(String pkg) {
        return pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/";
    }

    private static void update(MessageDigest sha, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        sha.update(Integer.toString(b.length).getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        sha.update(b);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
