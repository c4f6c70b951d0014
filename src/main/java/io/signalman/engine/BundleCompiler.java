package io.signalman.engine;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
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
        for (String folder : files.topFolders()) {
            PackDefinition def = packs.get(folder);
            if (def == null) {
                errors.add(new BundleError(folder + "/", 0, 0, "no pack is named \"" + folder + "\"; the packs are "
                        + packs.keySet()));
                continue;
            }
            try {
                CompiledPack pack = compilePack(def, files, warnings);
                compiled.put(def.name(), pack);
            } catch (BundleException e) {
                errors.addAll(e.errors());
            }
        }
        if (compiled.isEmpty() && errors.isEmpty()) {
            errors.add(new BundleError(".", 0, 0, "the bundle has no packs; expected folders named " + packs.keySet()));
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return new RuleBundle(files.revision(), clock.instant(), files, compiled, warnings);
    }

    private CompiledPack compilePack(PackDefinition def, BundleFiles files, List<BundleError> warnings)
            throws BundleException {
        Map<String, byte[]> all = files.under(def.name());
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
        KieBase kieBase = build(def, drl, errors);
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        DrlIndex index = DrlIndex.of(def, drl);
        errors.addAll(index.errors());
        errors.addAll(def.lint(index.rules(), reference));
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        warnings.addAll(index.warnings());
        return new CompiledPack(def, kieBase, index.rules(), reference);
    }

    private static KieBase build(PackDefinition def, Map<String, byte[]> drl, List<BundleError> errors) {
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.signalman.bundle", def.name(), "1.0." + BUILDS.incrementAndGet());
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        drl.forEach((path, bytes) -> kfs.write(RESOURCES + path, new String(bytes, StandardCharsets.UTF_8)));
        KieBuilder builder = ks.newKieBuilder(kfs).buildAll(ExecutableModelProject.class);
        for (Message m : builder.getResults().getMessages(Message.Level.ERROR)) {
            errors.add(new BundleError(relative(m.getPath(), def), Math.max(m.getLine(), 0), Math.max(m.getColumn(), 0),
                    oneLine(m.getText())));
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

    private static String relative(String path, PackDefinition def) {
        if (path == null || path.isEmpty()) {
            return def.name() + "/";
        }
        return path.startsWith(RESOURCES) ? path.substring(RESOURCES.length()) : path;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
