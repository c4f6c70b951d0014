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
import java.util.TreeMap;
import org.drools.model.codegen.ExecutableModelProject;

/**
 * Cuts a pack's DRL into {@link CompileUnit}s (see {@link UnitPolicy}).
 *
 * <p>A unit of a cut pack holds one file, with the rules of other units blanked out (line breaks
 * kept, so every remaining rule keeps its line and column), and, when its package has other
 * files, one context resource with their imports and globals: in DRL those are the package's,
 * so a rule sees them whichever file of the package declares them, and compiled apart it must
 * still see them. The key hashes exactly what the build reads, the Drools version and a format
 * number; a change anywhere in a unit's own rules, or in a declaration its package shares,
 * changes its key.
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
            for (DrlFile f : files) {
                sources.put(resource(f), f.text());
                paths.put(resource(f), f.path());
            }
            return List.of(unit(pack, "pack " + pack, sources, paths, Map.of(), rules));
        }
        List<CompileUnit> units = new ArrayList<>();
        for (DrlFile f : files) {
            List<DrlFile> others = files.stream().filter(o -> o != f && o.packageName().equals(f.packageName())).toList();
            int n = f.rules().size();
            int chunks = Math.max(1, (n + policy.maxRulesPerUnit() - 1) / policy.maxRulesPerUnit());
            for (int c = 0; c < chunks; c++) {
                int from = c * n / chunks;
                int to = (c + 1) * n / chunks;
                Map<String, String> sources = new LinkedHashMap<>();
                Map<String, List<CompileUnit.Origin>> context = new LinkedHashMap<>();
                sources.put(resource(f), chunks == 1 ? f.text() : f.keepingRules(from, to));
                if (!others.isEmpty()) {
                    String target = RESOURCES + folder(f.packageName()) + "package-context.drl";
                    List<CompileUnit.Origin> origins = new ArrayList<>();
                    sources.put(target, contextOf(f.packageName(), others, origins));
                    context.put(target, origins);
                }
                String label = f.path() + (chunks == 1 ? "" : " rules " + (from + 1) + "-" + to);
                units.add(unit(pack, label, sources, Map.of(resource(f), f.path()), context, to - from));
            }
        }
        return units;
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

    private static CompileUnit unit(String pack, String label, Map<String, String> sources, Map<String, String> files,
                                    Map<String, List<CompileUnit.Origin>> context, int rules) {
        MessageDigest sha = sha256();
        for (String part : List.of(FORMAT, DROOLS, pack)) {
            update(sha, part);
        }
        new TreeMap<>(sources).forEach((path, text) -> {
            update(sha, path);
            update(sha, text);
        });
        return new CompileUnit(pack, label, sources, files, context, rules, HexFormat.of().formatHex(sha.digest()));
    }

    /**
     * Where a file is written in a build: the folder of its package (Drools warns otherwise) and
     * its bundle path with '/' escaped, so no two files of a pack can collide.
     */
    private static String resource(DrlFile f) {
        return RESOURCES + folder(f.packageName()) + f.path().replace("%", "%25").replace("/", "%2F");
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
