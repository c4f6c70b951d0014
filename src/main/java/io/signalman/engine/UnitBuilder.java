package io.signalman.engine;

import io.signalman.rulelang.GeneratedJava;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.drools.compiler.kie.builder.impl.KieBuilderImpl;
import org.drools.compiler.kproject.models.KieBaseModelImpl;
import org.drools.model.Model;
import org.drools.modelcompiler.CanonicalKieModule;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;

/**
 * Builds one {@link CompileUnit} with the executable model: generates and compiles its Java, and
 * keeps the generated {@link Model} classes, from which any number of KieBases can be assembled.
 * Errors are mapped back to the analyst's file, and Java errors in generated consequence code to
 * the DRL line of the failing statement (or of the identifier the error names). The build's
 * KieModule is removed from the {@code KieRepository} singleton before this returns, so repeated
 * reloads do not accumulate modules. Blocking and CPU-heavy: runs on a compile thread.
 */
final class UnitBuilder {

    /** A unit that built: its Model classes (one per DRL package), each loaded by the unit's own class loader. */
    record Built(String key, List<Class<? extends Model>> models) {
    }

    /** What building a unit gave: {@code built} when it has no errors. */
    record Outcome(Built built, List<BundleError> errors) {
    }

    private static final AtomicLong BUILDS = new AtomicLong();

    private UnitBuilder() {
    }

    static Outcome build(CompileUnit unit, DrlIndex index) {
        return build(unit, index, true, null);
    }

    static Outcome build(CompileUnit unit, DrlIndex index, boolean vet) {
        return build(unit, index, vet, null);
    }

    /**
     * @param vet false only in tests that prove the class loader behind the generated-Java check
     *            stops what that check would have refused
     */
    /** @param store where units built before are kept between processes; null for none */
    static Outcome build(CompileUnit unit, DrlIndex index, boolean vet, UnitStore store) {
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.signalman.bundle", unit.pack(), "1.0." + BUILDS.incrementAndGet());
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        unit.sources().forEach(kfs::write);
        Set<String> packages = new HashSet<>();
        unit.files().values().forEach(f -> packages.add(index.packages().getOrDefault(f, "")));
        index.packages().values().forEach(packages::add); // a context resource declares its package's name too
        RuleClassLoader loader = new RuleClassLoader(UnitBuilder.class.getClassLoader(), index.vocabulary(), packages);
        Outcome stored = stored(unit, store, loader);
        if (stored != null) {
            return stored;
        }
        CheckedModelProject[] project = new CheckedModelProject[1];
        try (UnitStore.Claim claim = store == null ? UnitStore.Claim.NONE : store.claim(unit.key())) {
            Outcome keptMeanwhile = claim.waited() ? stored(unit, store, loader) : null;
            if (keptMeanwhile != null) {
                return keptMeanwhile;
            }
            KieBuilder builder = ((KieBuilderImpl) ks.newKieBuilder(kfs, loader)).buildAll((module, cl) -> project[0] =
                    new CheckedModelProject(module, cl, index.vocabulary(), packages, vet), name -> true);
            if (project[0] != null && !project[0].refusals().isEmpty()) {
                return new Outcome(null, refused(unit, index, project[0].refusals()));
            }
            if (project[0] != null && !project[0].javaProblems().isEmpty()) {
                return new Outcome(null, javaErrors(unit, index, project[0].javaProblems()));
            }
            List<BundleError> errors = errors(unit, index, builder.getResults().getMessages(Message.Level.ERROR));
            if (!errors.isEmpty()) {
                return new Outcome(null, errors);
            }
            if (project[0] == null || project[0].compiled().isEmpty()) {
                return models(unit, (CanonicalKieModule) builder.getKieModule());
            }
            // The classes are defined as a stored unit's are, through the rule class loader, not by
            // Drools' own loader for the module (whose parent is the application's: a class compiled
            // from the rules could link to anything there).
            Outcome built = defined(unit, project[0].compiled(), project[0].models(), loader);
            if (store != null && built.built() != null) {
                store.write(unit.key(), project[0].compiled(), project[0].models());
            }
            return built;
        } finally {
            ks.getRepository().removeKieModule(id);
        }
    }

    /** The unit as the store keeps it, or null when it has none (or none that loads). */
    private static Outcome stored(CompileUnit unit, UnitStore store, RuleClassLoader loader) {
        if (store == null) {
            return null;
        }
        Outcome stored = store.read(unit.key()).map(s -> fromStore(unit, s, loader)).orElse(null);
        if (stored != null) {
            store.countLoaded();
        }
        return stored;
    }

    /**
     * Java errors in generated consequence code, at the DRL line of the failing statement: the
     * compiler names the generated line, whose statement is found in the rule's consequence.
     * Names, imports and calls were checked by the rule reader before compiling, so what reaches
     * here is a type mismatch in a consequence.
     */
    private static List<BundleError> javaErrors(CompileUnit unit, DrlIndex index, List<CheckedModelProject.JavaProblem> problems) {
        List<BundleError> out = new ArrayList<>();
        for (CheckedModelProject.JavaProblem p : problems) {
            List<String> lines = p.source().lines().toList();
            String failing = p.line() >= 1 && p.line() <= lines.size() ? lines.get(p.line() - 1) : "";
            BundleError e = index.consequenceIn(p.source()).map(c -> new BundleError(c.rule().file(), c.lineOf(failing, null), 1,
                    "in the consequence of rule \"" + c.rule().name() + "\": " + p.message())).orElse(
                    new BundleError(unit.firstFile(), 0, 0, "in the Java compiled from " + unit.label() + ": " + p.message()));
            if (!out.contains(e)) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * What the generated-Java check refused, at the rule the code was generated for. The rule
     * reader should have refused it first; that it did not is itself a defect worth reporting.
     */
    private static List<BundleError> refused(CompileUnit unit, DrlIndex index, List<GeneratedJava.Problem> problems) {
        List<BundleError> out = new ArrayList<>();
        for (GeneratedJava.Problem p : problems) {
            RuleInfo rule = p.rule().flatMap(name -> index.rules().stream().filter(r -> r.name().equals(name)).findFirst())
                    .orElse(null);
            String what = "the Java compiled from " + (rule == null ? unit.label() : "rule \"" + rule.name() + "\"") + " holds "
                    + p.message() + ", which the rule language never produces: refused (the rule checker should have "
                    + "named the problem; please report it)";
            BundleError e = rule == null ? new BundleError(unit.firstFile(), 0, 0, what)
                    : new BundleError(rule.file(), rule.line(), rule.column(), what);
            if (!out.contains(e)) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * A unit read back from the store, its classes defined through the rule class loader; null when
     * they do not make up the unit (a damaged or foreign entry), which is then built anew.
     */
    private static Outcome fromStore(CompileUnit unit, UnitStore.Stored stored, RuleClassLoader loader) {
        Outcome o = defined(unit, stored.classes(), stored.models(), loader);
        return o.built() != null ? o : null;
    }

    /**
     * A unit's class files defined through the rule class loader ({@link StoredUnitLoader}), stored
     * or just compiled alike: its models, or an error when they do not load, link or hold the
     * unit's rules.
     */
    @SuppressWarnings("unchecked")
    private static Outcome defined(CompileUnit unit, Map<String, byte[]> classFiles, List<String> modelNames,
                                   RuleClassLoader loader) {
        try {
            StoredUnitLoader classes = new StoredUnitLoader(loader, classFiles);
            List<Class<? extends Model>> models = new ArrayList<>();
            int rules = 0;
            for (String name : modelNames) {
                Class<?> c = classes.loadClass(name);
                if (!Model.class.isAssignableFrom(c)) {
                    return new Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0, "the compiled rules of "
                            + unit.label() + " hold " + name + ", which is no rule model")));
                }
                models.add((Class<? extends Model>) c);
                rules += ((Model) c.getDeclaredConstructor().newInstance()).getRules().size();
            }
            if (rules != unit.expectedRules()) {
                return new Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0, "the compiled rules are incomplete: "
                        + rules + " of " + unit.expectedRules() + " rules of " + unit.label() + " built")));
            }
            return new Outcome(new Built(unit.key(), List.copyOf(models)), List.of());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return new Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0, "the compiled rules of " + unit.label()
                    + " did not load: " + e)));
        }
    }

    /**
     * All or nothing, checked: some executable-model failures (a consequence the Java parser
     * rejects) are only logged by Drools, and the build then lacks the package. A unit is kept
     * only if its models hold exactly the rules its sources declare.
     */
    private static Outcome models(CompileUnit unit, CanonicalKieModule module) {
        List<Class<? extends Model>> classes = new ArrayList<>();
        int rules = 0;
        for (Model m : module.getModelForKBase(new KieBaseModelImpl())) {
            classes.add(m.getClass());
            rules += m.getRules().size();
        }
        if (rules != unit.expectedRules()) {
            return new Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0, "the compiled rules are incomplete: "
                    + rules + " of " + unit.expectedRules() + " rules of " + unit.label()
                    + " built (see the Drools log above for the failing rule)")));
        }
        return new Outcome(new Built(unit.key(), List.copyOf(classes)), List.of());
    }

    private static List<BundleError> errors(CompileUnit unit, DrlIndex index, List<Message> messages) {
        List<BundleError> errors = new ArrayList<>();
        for (Message m : messages) {
            BundleError e = locate(unit, m, index);
            if (e != null && !errors.contains(e)) {
                errors.add(e);
            }
        }
        return errors;
    }

    private static BundleError locate(CompileUnit unit, Message m, DrlIndex index) {
        String text = oneLine(m.getText());
        String path = m.getPath() == null ? "" : m.getPath();
        int line = Math.max(m.getLine(), 0);
        int column = Math.max(m.getColumn(), 0);
        // Drools names a DRL resource with or without the resources folder, depending on the phase.
        String resource = unit.sources().containsKey(path) ? path : CompileUnits.RESOURCES + path;
        String file = unit.files().get(resource);
        if (file != null) {
            // Drools puts a consequence that does not parse at its rule's first line; say which line.
            return index.consequenceSyntaxError(file, line, text).orElse(new BundleError(file, line, column, text));
        }
        List<CompileUnit.Origin> context = unit.context().get(resource);
        if (context != null) {
            CompileUnit.Origin o = line >= 1 && line <= context.size() ? context.get(line - 1) : context.get(0);
            return new BundleError(o.file(), o.line(), o.line() == 0 ? 0 : column, text);
        }
        if (path.endsWith(".java")) {
            return null; // the Java compiler's own diagnostics were read from the project (javaErrors)
        }
        return new BundleError(path.isEmpty() ? unit.pack() + "/" : relative(path), line, column, text);
    }

    private static String relative(String path) {
        return path.startsWith(CompileUnits.RESOURCES) ? path.substring(CompileUnits.RESOURCES.length()) : path;
    }

    /** One line, without the parser's stack trace that some Drools messages carry. */
    private static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        int trace = text.indexOf("Problem stacktrace");
        StringBuilder out = new StringBuilder();
        for (String l : (trace < 0 ? text : text.substring(0, trace)).strip().lines().toList()) {
            out.append(out.length() == 0 ? "" : " ").append(l.strip());
        }
        return out.toString();
    }
}
