package io.signalman.engine;

import io.signalman.engine.tables.DecisionTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSession;

/**
 * One pack on its way through a compile: {@link #start} reads its reference data and DRL and
 * starts building the units the cache lacks; {@link #finish} collects them, assembles a new
 * KieBase and checks it. Between the two, the other packs' units build too. A little over 200
 * lines: the order of the stages, and which still run once one has failed, is this class's one
 * idea, and reads best in one place.
 */
final class PackBuild {

    /** Where units come from: the compiler's cache, or a build on its threads. */
    interface Units {

        /** The unit built before, or null. */
        UnitBuilder.Built cached(CompileUnit unit);

        Future<UnitBuilder.Outcome> build(CompileUnit unit, DrlIndex index);

        /** Keeps a unit that built, for later compiles. */
        void keep(UnitBuilder.Built built);
    }

    private final PackDefinition def;
    private final List<BundleError> errors = new ArrayList<>();
    private ReferenceData reference = ReferenceData.NONE;
    private boolean referenceLoaded;
    private boolean semanticChecked;
    private DrlIndex index;
    /** Per unit, in plan order: its built form from the cache, or its build under way. */
    private final List<UnitBuilder.Built> cached = new ArrayList<>();
    private final List<Future<UnitBuilder.Outcome>> building = new ArrayList<>();
    /** The pack's decision tables by path, to move errors from generated DRL lines to table rows. */
    private final Map<String, DecisionTable> tables = new HashMap<>();

    private PackBuild(PackDefinition def) {
        this.def = def;
    }

    static PackBuild start(PackDefinition def, Map<String, byte[]> all, UnitPolicy policy, Units units) {
        PackBuild b = new PackBuild(def);
        Map<String, byte[]> drl = new LinkedHashMap<>();
        all.forEach((path, bytes) -> {
            if (path.endsWith(".drl")) {
                drl.put(path, bytes);
            } else if (DecisionTable.isTable(path)) {
                // A table becomes DRL under its own path, so it is indexed, linted and compiled as DRL is.
                try {
                    DecisionTable t = DecisionTable.read(path, bytes);
                    b.tables.put(path, t);
                    drl.put(path, t.drl().getBytes(StandardCharsets.UTF_8));
                } catch (io.signalman.json.Unreadable e) {
                    b.errors.add(BundleError.of(path, e));
                }
            }
        });
        // A table that cannot be read stops nothing else: the other files are read and checked too,
        // so that an analyst sees every error at once, not in waves.
        if (drl.isEmpty()) {
            if (b.errors.isEmpty()) {
                b.errors.add(new BundleError(def.name() + "/", 0, 0, "pack " + def.name() + " has no .drl files"));
            }
            return b;
        }
        b.index = DrlIndex.read(def, drl, b.tables);
        try {
            // The reference data gets the checker's readings of the DRL files: each is parsed once.
            b.reference = def.loadReference(PackFiles.of(all, b.index.readings()));
            b.referenceLoaded = true;
        } catch (BundleException e) {
            b.errors.addAll(e.errors());
        }
        if (b.referenceLoaded) {
            b.errors.addAll(b.overBudget()); // the files that parsed are judged even when another did not
        }
        if (b.index.unparsable()) {
            b.index.lint(def);
            b.errors.addAll(b.index.errors());
            b.semanticChecks();
            return b; // the compiler would only repeat the parser's errors
        }
        for (CompileUnit unit : CompileUnits.plan(def.name(), b.index.files().values(), policy)) {
            UnitBuilder.Built hit = units.cached(unit);
            b.cached.add(hit);
            b.building.add(hit == null ? units.build(unit, b.index) : null);
        }
        // The rules were read before any unit was handed to the compiler; the lint only reads them,
        // so it runs here while the units compile instead of before, on a core that would wait.
        b.index.lint(def);
        b.errors.addAll(b.index.errors());
        return b;
    }

    String name() {
        return def.name();
    }

    /**
     * The rules whose worst case is over the budgets, each at its {@code file:line}: judged from the
     * rules as read and the reference data as loaded, before anything of them is compiled or run,
     * so that no stage after this one (the gate's replay, a draft's Try or scenarios, a trial)
     * ever evaluates them.
     */
    private List<BundleError> overBudget() {
        io.signalman.cost.CostModel model = new io.signalman.cost.CostModel(def.vocabulary(), reference.facts(),
                io.signalman.cost.Budgets.current());
        List<BundleError> out = new ArrayList<>();
        index.readings().forEach((path, file) -> {
            for (io.signalman.rulelang.RuleReading r : file.rules()) {
                String problem = model.problem(r);
                if (problem != null) {
                    out.add(atRow(new BundleError(path, Math.max(r.descr().getLine(), 1), 1, problem)));
                }
            }
        });
        if (out.isEmpty()) {
            // Only once every rule is within its own budget: an over-budget rule would be named twice.
            List<io.signalman.rulelang.RuleReading> all = new ArrayList<>();
            index.readings().values().forEach(f -> all.addAll(f.rules()));
            String pack = model.packProblem(all);
            if (pack != null) {
                out.add(new BundleError(def.name() + "/", 0, 0, pack));
            }
        }
        out.sort(java.util.Comparator.comparing(BundleError::file).thenComparingInt(BundleError::line));
        return out;
    }

    /** Errors so far; after {@link #finish}, all of the pack's. */
    List<BundleError> errors() {
        return errors;
    }

    /** A compiler error in the DRL read from a table, moved to the row of the rule it is in. */
    private BundleError atRow(BundleError e) {
        DecisionTable t = tables.get(e.file());
        return t == null ? e : new BundleError(e.file(), t.row(e.line()), 0, e.message());
    }

    /**
     * Waits for the pack's units, assembles its KieBase and checks it, lints, and analyzes.
     * Returns null when the pack has errors. Every unit that built is kept, even when the pack
     * fails, so that fixing one file reuses the rest.
     */
    CompiledPack finish(Units units, List<BundleError> warnings) throws BundleException {
        if (index == null) {
            return null;
        }
        List<UnitBuilder.Built> built = new ArrayList<>();
        Set<BundleError> unitErrors = new LinkedHashSet<>(); // a declaration every unit sees fails in each
        for (int i = 0; i < cached.size(); i++) {
            UnitBuilder.Built b = cached.get(i);
            if (b == null) {
                UnitBuilder.Outcome outcome = await(building.get(i));
                outcome.errors().forEach(e -> unitErrors.add(atRow(e)));
                b = outcome.built();
                if (b != null) {
                    units.keep(b);
                }
            }
            if (b != null) {
                built.add(b);
            }
        }
        errors.addAll(unitErrors);
        if (!errors.isEmpty()) {
            semanticChecks();
            return null;
        }
        KieBase kieBase = assemble(built);
        if (kieBase != null) {
            verify(kieBase);
        }
        if (errors.isEmpty()) {
            errors.addAll(def.lint(index.rules(), reference));
        }
        if (errors.isEmpty()) {
            try {
                reference = def.analyze(index.parsed(), reference);
            } catch (BundleException e) {
                errors.addAll(e.errors());
            }
        }
        if (!errors.isEmpty()) {
            return null;
        }
        warnings.addAll(index.warnings());
        warnings.addAll(def.lintWarnings(index.rules(), reference));
        warnings.addAll(ReferenceOnlyLint.check(index.parsed(), reference));
        return new CompiledPack(def, kieBase, index.parsed(), reference);
    }

    /**
     * The pack's own checks (names the reference data does not know, an FSM's transitions) on the
     * rules that were read, when the pack is refused anyway: a misspelt recipient is reported with
     * a syntax error elsewhere, not after it is fixed. They need the reference data, so they wait
     * for that to load; errors they repeat are reported once.
     */
    private void semanticChecks() {
        if (semanticChecked || !referenceLoaded || index == null) {
            return;
        }
        semanticChecked = true;
        Set<BundleError> all = new LinkedHashSet<>(errors);
        all.addAll(def.lint(index.rules(), reference));
        try {
            def.analyze(index.parsed(), reference);
        } catch (BundleException e) {
            all.addAll(e.errors());
        }
        errors.clear();
        errors.addAll(all);
    }

    /** Stops builds nobody will collect (a compile that ended early). */
    void cancel() {
        building.forEach(f -> {
            if (f != null) {
                f.cancel(true);
            }
        });
    }

    private KieBase assemble(List<UnitBuilder.Built> built) {
        Map<String, Integer> loadOrder = new HashMap<>();
        index.rules().forEach(r -> loadOrder.put(r.name(), r.index()));
        try {
            return KieBaseAssembly.assemble(built, loadOrder);
        } catch (RuntimeException e) {
            errors.add(new BundleError(def.name() + "/", 0, 0, "the compiled rules could not be assembled: " + e));
            return null;
        }
    }

    /**
     * All or nothing, checked once more on the assembled KieBase: it holds exactly the rules the
     * sources declare, and a session of it takes the {@code decide} global.
     */
    private void verify(KieBase kieBase) {
        int compiled = kieBase.getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum();
        if (compiled != index.rules().size()) {
            errors.add(new BundleError(def.name() + "/", 0, 0, "the compiled rules are incomplete: " + compiled + " of "
                    + index.rules().size() + " rules built (see the Drools log above for the failing rule)"));
            return;
        }
        KieSession probe = kieBase.newKieSession();
        try {
            probe.setGlobal(Collector.GLOBAL, def.newCollector(ReferenceData.NONE));
        } catch (RuntimeException e) {
            errors.add(new BundleError(def.name() + "/", 0, 0, "the compiled rules do not declare the global \"decide\": "
                    + e.getMessage()));
        } finally {
            probe.dispose();
        }
    }

    private static UnitBuilder.Outcome await(Future<UnitBuilder.Outcome> f) throws BundleException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BundleException(new BundleError(".", 0, 0, "compilation interrupted"));
        } catch (ExecutionException e) {
            throw new IllegalStateException("a compile unit failed outside its own error handling", e.getCause());
        }
    }
}
