package io.signalman.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.kie.api.KieBase;

/**
 * Compiles a bundle's files into a {@link RuleBundle}, all or nothing.
 *
 * <p>Each pack is cut into compile units ({@link UnitPolicy}); a unit whose sources did not
 * change since the last compile or the one before is not compiled again, and every compile
 * assembles new KieBases from built and cached units alike, so a reload after a one-file edit
 * recompiles that file only. Units of all packs build in parallel on this compiler's few
 * threads. Compiles are serialized; blocking and CPU-heavy: run on a worker thread.
 */
public final class BundleCompiler {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Map<String, PackDefinition> packs = new LinkedHashMap<>();
    private final Clock clock;
    private final UnitPolicy policy;
    private final UnitCache cache = new UnitCache();
    private final AtomicLong unitsBuilt = new AtomicLong();
    private final AtomicLong unitsReused = new AtomicLong();
    private ExecutorService pool;

    public BundleCompiler(List<PackDefinition> definitions, Clock clock) {
        this(definitions, clock, UnitPolicy.DEFAULT);
    }

    public BundleCompiler(List<PackDefinition> definitions, Clock clock, UnitPolicy policy) {
        definitions.forEach(d -> packs.put(d.name(), d));
        this.clock = clock;
        this.policy = policy;
    }

    public List<String> knownPacks() {
        return List.copyOf(packs.keySet());
    }

    /** Units this compiler has built (compiled with Drools) since it was made, failed ones included. */
    public long unitsBuilt() {
        return unitsBuilt.get();
    }

    /** Units this compiler took from its cache instead of building them. */
    public long unitsReused() {
        return unitsReused.get();
    }

    /** Built units held for the next compile: those of the last two compiles. */
    public synchronized int unitsCached() {
        return cache.size();
    }

    /** One pack on its way through a compile. */
    private static final class PackWork {
        final PackDefinition def;
        final List<BundleError> errors = new ArrayList<>();
        ReferenceData reference = ReferenceData.NONE;
        DrlIndex index;
        /** The pack's units, each either taken from the cache or being built. */
        final List<CompileUnit> units = new ArrayList<>();
        final List<UnitBuilder.Built> cached = new ArrayList<>();
        final List<Future<UnitBuilder.Outcome>> building = new ArrayList<>();

        PackWork(PackDefinition def) {
            this.def = def;
        }
    }

    public synchronized RuleBundle compile(BundleFiles files) throws BundleException {
        List<BundleError> errors = new ArrayList<>();
        List<BundleError> warnings = new ArrayList<>();
        for (String path : files.paths()) {
            if (path.indexOf('/') > 0 && packs.values().stream().noneMatch(d -> d.includes(path))) {
                String folder = path.substring(0, path.indexOf('/'));
                errors.add(new BundleError(path, 0, 0, "no pack takes this file: there is no pack named \"" + folder
                        + "\"; the packs are " + packs.keySet()));
            }
        }
        List<PackWork> work = new ArrayList<>();
        try {
            for (PackDefinition def : packs.values()) {
                Map<String, byte[]> own = new LinkedHashMap<>();
                files.paths().stream().filter(def::includes).forEach(p -> own.put(p, files.bytes(p)));
                if (!own.isEmpty()) {
                    work.add(start(def, own));
                }
            }
            Map<String, CompiledPack> compiled = new LinkedHashMap<>();
            for (PackWork w : work) {
                CompiledPack pack = finish(w, warnings);
                errors.addAll(w.errors);
                if (pack != null) {
                    compiled.put(w.def.name(), pack);
                }
            }
            if (work.isEmpty() && errors.isEmpty()) {
                errors.add(new BundleError(".", 0, 0, "the bundle has no packs; expected folders named " + packs.keySet()));
            }
            if (!errors.isEmpty()) {
                errors.sort(Comparator.comparing(BundleError::file).thenComparingInt(BundleError::line));
                throw new BundleException(errors);
            }
            return new RuleBundle(files.revision(), clock.instant(), files, compiled, warnings);
        } finally {
            work.forEach(w -> w.building.forEach(f -> {
                if (f != null) {
                    f.cancel(true);
                }
            }));
            cache.endCompile();
        }
    }

    /** Reads the pack's reference data and DRL, and starts building the units the cache lacks. */
    private PackWork start(PackDefinition def, Map<String, byte[]> all) {
        PackWork w = new PackWork(def);
        Map<String, byte[]> drl = new LinkedHashMap<>();
        all.forEach((path, bytes) -> {
            if (path.endsWith(".drl")) {
                drl.put(path, bytes);
            }
        });
        if (drl.isEmpty()) {
            w.errors.add(new BundleError(def.name() + "/", 0, 0, "pack " + def.name() + " has no .drl files"));
            return w;
        }
        try {
            w.reference = def.loadReference(all);
        } catch (BundleException e) {
            w.errors.addAll(e.errors());
        }
        w.index = DrlIndex.of(def, drl);
        w.errors.addAll(w.index.errors());
        if (w.index.unparsable()) {
            return w; // the compiler would only repeat the parser's errors
        }
        DrlIndex index = w.index;
        for (CompileUnit unit : CompileUnits.plan(def.name(), index.files().values(), policy)) {
            UnitBuilder.Built hit = cache.use(unit.key());
            w.units.add(unit);
            w.cached.add(hit);
            if (hit != null) {
                unitsReused.incrementAndGet();
                w.building.add(null);
            } else {
                unitsBuilt.incrementAndGet();
                w.building.add(pool().submit(() -> buildSafely(unit, index)));
            }
        }
        return w;
    }

    /** Collects the pack's units, assembles its KieBase and checks it; null when the pack has errors. */
    private CompiledPack finish(PackWork w, List<BundleError> warnings) throws BundleException {
        if (w.index == null) {
            return null;
        }
        List<UnitBuilder.Built> built = new ArrayList<>();
        Set<BundleError> unitErrors = new LinkedHashSet<>();
        for (int i = 0; i < w.units.size(); i++) {
            UnitBuilder.Built b = w.cached.get(i);
            if (b == null) {
                UnitBuilder.Outcome outcome = await(w.building.get(i));
                unitErrors.addAll(outcome.errors());
                b = outcome.built();
                if (b != null) {
                    cache.put(b);
                }
            }
            if (b != null) {
                built.add(b);
            }
        }
        w.errors.addAll(unitErrors);
        if (!w.errors.isEmpty()) {
            return null;
        }
        KieBase kieBase = assemble(w, built);
        if (kieBase != null) {
            verify(w.def, kieBase, w.index, w.errors);
        }
        if (w.errors.isEmpty()) {
            w.errors.addAll(w.def.lint(w.index.rules(), w.reference));
        }
        if (w.errors.isEmpty()) {
            try {
                w.reference = w.def.analyze(w.index.parsed(), w.reference);
            } catch (BundleException e) {
                w.errors.addAll(e.errors());
            }
        }
        if (!w.errors.isEmpty()) {
            return null;
        }
        warnings.addAll(w.index.warnings());
        return new CompiledPack(w.def, kieBase, w.index.parsed(), w.reference);
    }

    private static KieBase assemble(PackWork w, List<UnitBuilder.Built> built) {
        Map<String, Integer> loadOrder = new HashMap<>();
        w.index.rules().forEach(r -> loadOrder.put(r.name(), r.index()));
        try {
            return KieBaseAssembly.assemble(built, loadOrder);
        } catch (RuntimeException e) {
            w.errors.add(new BundleError(w.def.name() + "/", 0, 0, "the compiled rules could not be assembled: " + e));
            return null;
        }
    }

    /**
     * All or nothing, checked once more on the assembled KieBase: it holds exactly the rules the
     * sources declare, and a session of it takes the {@code decide} global.
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

    /** A unit's build; a Drools crash is the unit's error, never the caller's exception. */
    private static UnitBuilder.Outcome buildSafely(CompileUnit unit, DrlIndex index) {
        try {
            return UnitBuilder.build(unit, index);
        } catch (RuntimeException | LinkageError e) {
            return new UnitBuilder.Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0,
                    "the rule compiler failed on " + unit.label() + ": " + e)));
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

    /** The compile threads, started on first use; idle ones stop, so an idle compiler holds none. */
    private ExecutorService pool() {
        if (pool == null) {
            ThreadPoolExecutor p = new ThreadPoolExecutor(policy.threads(), policy.threads(), 10, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "signalman-compile-" + THREADS.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            p.allowCoreThreadTimeOut(true);
            pool = p;
        }
        return pool;
    }
}
