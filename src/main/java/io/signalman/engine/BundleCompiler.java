package io.signalman.engine;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.drools.model.codegen.ExecutableModelProject;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;

/**
 * Compiles a bundle's files into a {@link RuleBundle}, all or nothing.
 *
 * <p>Each pack is its own KieModule built with the executable model; its module is removed from
 * the {@code KieRepository} singleton as soon as its KieBase exists, so repeated reloads do not
 * accumulate modules. Blocking and CPU-heavy: run it on a worker thread.
 */
public final class BundleCompiler {

    private static final String RESOURCES = "src/main/resources/";
    private static final AtomicLong BUILDS = new AtomicLong();
    /** The identifier a Java compile error names: "The method fanOt(String) ...", "x cannot be resolved". */
    private static final java.util.regex.Pattern NAMED = java.util.regex.Pattern.compile(
            "The method (\\w+)\\(|^(\\w+) cannot be resolved");

    private final Map<String, PackDefinition> packs = new LinkedHashMap<>();
    private final Clock clock;

    public BundleCompiler(List<PackDefinition> definitions, Clock clock) {
        definitions.forEach(d -> packs.put(d.name(), d));
        this.clock = clock;
    }

    public List<String> knownPacks() {
        return List.copyOf(packs.keySet());
    }

    public RuleBundle compile(BundleFiles files) throws BundleException {
        List<BundleError> errors = new ArrayList<>();
        List<BundleError> warnings = new ArrayList<>();
        Map<String, CompiledPack> compiled = new LinkedHashMap<>();
        for (String path : files.paths()) {
            if (path.indexOf('/') > 0 && packs.values().stream().noneMatch(d -> d.includes(path))) {
                String folder = path.substring(0, path.indexOf('/'));
                errors.add(new BundleError(path, 0, 0, "no pack takes this file: there is no pack named \"" + folder
                        + "\"; the packs are " + packs.keySet()));
            }
        }
        for (PackDefinition def : packs.values()) {
            Map<String, byte[]> own = new LinkedHashMap<>();
            files.paths().stream().filter(def::includes).forEach(p -> own.put(p, files.bytes(p)));
            if (own.isEmpty()) {
                continue;
            }
            try {
                compiled.put(def.name(), compilePack(def, own, warnings));
            } catch (BundleException e) {
                errors.addAll(e.errors());
            }
        }
        if (compiled.isEmpty() && errors.isEmpty()) {
            errors.add(new BundleError(".", 0, 0, "the bundle has no packs; expected folders named " + packs.keySet()));
        }
        if (!errors.isEmpty()) {
            errors.sort(java.util.Comparator.comparing(BundleError::file).thenComparingInt(BundleError::line));
            throw new BundleException(errors);
        }
        return new RuleBundle(files.revision(), clock.instant(), files, compiled, warnings);
    }

    private CompiledPack compilePack(PackDefinition def, Map<String, byte[]> all, List<BundleError> warnings)
            throws BundleException {
        Map<String, byte[]> drl = new LinkedHashMap<>();
        all.forEach((path, bytes) -> {
            if (path.endsWith(".drl")) {
                drl.put(path, bytes);
            }
        });
        if (drl.isEmpty()) {
            throw new BundleException(new BundleError(def.name() + "/", 0, 0, "pack " + def.name() + " has no .drl files"));
        }
        List<BundleError> errors = new ArrayList<>();
        ReferenceData reference = ReferenceData.NONE;
        try {
            reference = def.loadReference(all);
        } catch (BundleException e) {
            errors.addAll(e.errors());
        }
        DrlIndex index = DrlIndex.of(def, drl);
        errors.addAll(index.errors());
        KieBase kieBase = index.unparsable() ? null : build(def, drl, index, errors);
        if (kieBase != null && errors.isEmpty()) {
            verify(def, kieBase, index, errors);
        }
        if (errors.isEmpty()) {
            errors.addAll(def.lint(index.rules(), reference));
        }
        if (errors.isEmpty()) {
            reference = def.analyze(index.parsed(), reference);
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        warnings.addAll(index.warnings());
        return new CompiledPack(def, kieBase, index.parsed(), reference);
    }

    /**
     * Builds the pack's KieBase. Each file is written where its package says it belongs (Drools
     * warns otherwise), prefixed with its position so the sorted path order is the load order;
     * errors are mapped back to the analyst's file, and Java errors in generated consequence code
     * to the DRL line of the failing statement (or of the identifier the error names).
     */
    private static KieBase build(PackDefinition def, Map<String, byte[]> drl, DrlIndex index, List<BundleError> errors) {
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.signalman.bundle", def.name(), "1.0." + BUILDS.incrementAndGet());
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        Map<String, String> toBundlePath = new HashMap<>();
        int n = 0;
        for (Map.Entry<String, byte[]> file : drl.entrySet()) {
            String pkg = index.packages().getOrDefault(file.getKey(), "").replace('.', '/');
            String name = file.getKey().substring(file.getKey().lastIndexOf('/') + 1);
            String target = RESOURCES + (pkg.isEmpty() ? "" : pkg + "/") + String.format("%04d-%s", n++, name);
            toBundlePath.put(target, file.getKey());
            kfs.write(target, new String(file.getValue(), StandardCharsets.UTF_8));
        }
        KieBuilder builder = ks.newKieBuilder(kfs).buildAll(ExecutableModelProject.class);
        Set<String> reported = new HashSet<>();
        List<Message> messages = builder.getResults().getMessages(Message.Level.ERROR);
        // Drools reports a Java error in generated code twice: once located, once with the source.
        Map<String, String> sources = new HashMap<>();
        for (Message m : messages) {
            if (m.getPath() != null && m.getText() != null && m.getText().startsWith("Java source of ")) {
                sources.put(m.getPath(), m.getText());
            }
        }
        for (Message m : messages) {
            BundleError e = locate(def, m, toBundlePath, index, sources);
            if (e != null && reported.add(e.toString())) {
                errors.add(e);
            }
        }
        if (!errors.isEmpty()) {
            ks.getRepository().removeKieModule(id);
            return null;
        }
        try {
            return ks.newKieContainer(id).getKieBase();
        } finally {
            ks.getRepository().removeKieModule(id);
        }
    }

    /**
     * All or nothing, checked: some executable-model failures (a consequence the Java parser
     * rejects) are only logged by Drools while the KieBase is built, which then lacks the
     * package. A KieBase is accepted only if it holds exactly the rules the sources declare and a
     * session of it takes the {@code decide} global.
     */
    private static void verify(PackDefinition def, KieBase kieBase, DrlIndex index, List<BundleError> errors) {
        int compiled = kieBase.getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum();
        if (compiled != index.rules().size()) {
            errors.add(new BundleError(def.name() + "/", 0, 0, "the compiled rules are incomplete: " + compiled + " of "
                    + index.rules().size() + " rules built (see the Drools log above for the failing rule)"));
            return;
        }
        org.kie.api.runtime.KieSession probe = kieBase.newKieSession();
        try {
            probe.setGlobal(Collector.GLOBAL, def.newCollector(ReferenceData.NONE));
        } catch (RuntimeException e) {
            errors.add(new BundleError(def.name() + "/", 0, 0, "the compiled rules do not declare the global \"decide\": "
                    + e.getMessage()));
        } finally {
            probe.dispose();
        }
    }

    private static BundleError locate(PackDefinition def, Message m, Map<String, String> toBundlePath, DrlIndex index,
                                      Map<String, String> sources) {
        String text = oneLine(m.getText());
        String path = m.getPath() == null ? "" : m.getPath();
        // Drools names a DRL resource with or without the resources folder, depending on the phase.
        String mapped = toBundlePath.getOrDefault(path, toBundlePath.get(RESOURCES + path));
        if (mapped != null) {
            return new BundleError(mapped, Math.max(m.getLine(), 0), Math.max(m.getColumn(), 0), text);
        }
        if (path.endsWith(".java")) {
            if (text.startsWith("Java source of ")) {
                return null; // the whole generated source, repeated after each real error in it
            }
            String source = sources.getOrDefault(path, "");
            String[] lines = source.substring(Math.max(source.indexOf('\n') + 1, 0)).split("\n", -1);
            String failing = m.getLine() >= 1 && m.getLine() <= lines.length ? lines[m.getLine() - 1] : "";
            java.util.regex.Matcher named = NAMED.matcher(text);
            String identifier = named.find() ? (named.group(1) != null ? named.group(1) : named.group(2)) : null;
            return index.consequenceIn(source).map(c -> new BundleError(c.rule().file(), c.lineOf(failing, identifier), 1,
                    "in the consequence of rule \"" + c.rule().name() + "\": " + text)).orElse(
                    new BundleError(def.name() + "/", 0, 0, "in generated code " + path + ": " + text));
        }
        return new BundleError(path.isEmpty() ? def.name() + "/" : relative(path, def), Math.max(m.getLine(), 0),
                Math.max(m.getColumn(), 0), text);
    }

    private static String relative(String path, PackDefinition def) {
        if (path == null || path.isEmpty()) {
            return def.name() + "/";
        }
        return path.startsWith(RESOURCES) ? path.substring(RESOURCES.length()) : path;
    }

    /** One line, without the parser's stack trace that some Drools messages carry. */
    private static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        int trace = text.indexOf("Problem stacktrace");
        return (trace < 0 ? text : text.substring(0, trace)).strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
