package io.signalman.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Compiles a bundle's files into a {@link RuleBundle}, all or nothing.
 *
 * <p>Each pack is cut into compile units ({@link UnitPolicy}, {@link CompileUnits}); a unit whose
 * rules and package declarations did not change since the last compile or the one before is
 * not compiled again, and every compile assembles new KieBases from built and cached units
 * alike ({@link KieBaseAssembly}), so a reload after a one-file edit recompiles that file only.
 * Units of all packs build in parallel on this compiler's few threads. Compiles are serialized;
 * blocking and CPU-heavy: run on a worker thread.
 */
public final class BundleCompiler {

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final java.util.regex.Pattern PATH = java.util.regex.Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*"
            + "(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*");

    private final Map<String, PackDefinition> packs = new LinkedHashMap<>();
    private final Clock clock;
    private final UnitPolicy policy;
    private UnitCache cache = new UnitCache(); // replaced after a stopped check, under the lock
    private final UnitStore store;
    private final java.nio.file.Path storeDir;
    private final AtomicLong unitsBuilt = new AtomicLong();
    private final AtomicLong unitsReused = new AtomicLong();
    private ExecutorService pool;

    public BundleCompiler(List<PackDefinition> definitions, Clock clock) {
        this(definitions, clock, UnitPolicy.DEFAULT);
    }

    public BundleCompiler(List<PackDefinition> definitions, Clock clock, UnitPolicy policy) {
        this(definitions, clock, policy, null);
    }

    /**
     * @param store where built units are kept between processes ({@code serve --compiled-cache}),
     *              so a restart with unchanged rules loads them instead of compiling; null for none
     */
    public BundleCompiler(List<PackDefinition> definitions, Clock clock, UnitPolicy policy, java.nio.file.Path store) {
        definitions.forEach(d -> packs.put(d.name(), d));
        this.clock = clock;
        this.policy = policy;
        this.store = store == null ? null : new UnitStore(store);
        this.storeDir = store;
    }

    /** A compiler of the same packs, policy and store, with a cache of its own (the workbench's drafts). */
    public BundleCompiler sibling() {
        return new BundleCompiler(definitions(), clock, policy, storeDir);
    }

    /** The packs this compiler compiles, as it was given them. */
    public List<PackDefinition> definitions() {
        return List.copyOf(packs.values());
    }

    public List<String> knownPacks() {
        return List.copyOf(packs.keySet());
    }

    /** Units this compiler has built (compiled with Drools) since it was made, failed ones included. */
    public long unitsBuilt() {
        return unitsBuilt.get();
    }

    /** Units read back from the store between processes instead of compiled (counted in {@link #unitsBuilt} too). */
    public long unitsLoaded() {
        return store == null ? 0 : store.loaded();
    }

    /** Units this compiler took from its cache instead of building them. */
    public long unitsReused() {
        return unitsReused.get();
    }

    /** Built units held for the next compile: those of the last two compiles. */
    public synchronized int unitsCached() {
        return cache.size();
    }

    /**
     * Compiles every pack of the bundle; refused with every error of every pack, sorted by file and
     * line, or as too complex to check when that takes longer than the check's deadline
     * ({@link CheckDeadline}).
     */
    public RuleBundle compile(BundleFiles files) throws BundleException {
        return CheckDeadline.run(started -> {
            synchronized (this) {
                started.complete(null);
                return compileHeld(files);
            }
        }, this::forgetUnits);
    }

    /** After a check was stopped: the in-memory units are dropped, since the stop may have landed while one was kept. */
    private synchronized void forgetUnits() {
        cache = new UnitCache();
    }

    private RuleBundle compileHeld(BundleFiles files) throws BundleException {
        List<BundleError> errors = new ArrayList<>();
        List<BundleError> warnings = new ArrayList<>();
        boolean unreadable = false;
        for (String path : files.paths()) {
            if (!PATH.matcher(path).matches()) {
                // A file's name reaches the Java the rules compile to (Drools names a rule's file in it).
                errors.add(new BundleError(path, 0, 0, "a file name in a rule bundle may use letters, digits, \".\", \"_\" "
                        + "and \"-\" only, in folders named the same way: rename it"));
                unreadable = true;
                continue;
            }
            if (files.bytes(path).length > BundleFiles.MAX_FILE_BYTES) {
                // A draft's files reach here without BundleFiles.read: the same bound, before anything parses them.
                errors.add(new BundleError(path, 0, 0, BundleFiles.tooLarge(files.bytes(path).length)));
                unreadable = true;
                continue;
            }
            List<BundleError> controls = BundleText.refusals(path, files.bytes(path));
            errors.addAll(controls);
            unreadable |= !controls.isEmpty();
            if (path.indexOf('/') > 0 && packs.values().stream().noneMatch(d -> d.includes(path))) {
                String folder = path.substring(0, path.indexOf('/'));
                errors.add(new BundleError(path, 0, 0, "no pack takes this file: there is no pack named \"" + folder
                        + "\"; the packs are " + packs.keySet()));
            }
        }
        if (unreadable) {
            // Nothing of a bundle holding such a name, or text people cannot see, is compiled.
            throw new BundleException(errors);
        }
        List<PackBuild> builds = new ArrayList<>();
        try {
            for (PackDefinition def : packs.values()) {
                Map<String, byte[]> own = new LinkedHashMap<>();
                // Scenarios are hashed with the bundle but are neither DRL nor reference data.
                files.paths().stream().filter(p -> def.includes(p) && !BundleFiles.isScenario(p))
                        .forEach(p -> own.put(p, files.bytes(p)));
                if (!own.isEmpty()) {
                    builds.add(PackBuild.start(def, own, policy, units));
                }
            }
            Map<String, CompiledPack> compiled = new LinkedHashMap<>();
            for (PackBuild b : builds) {
                CompiledPack pack = b.finish(units, warnings);
                errors.addAll(b.errors());
                if (pack != null) {
                    compiled.put(b.name(), pack);
                }
            }
            if (builds.isEmpty() && errors.isEmpty()) {
                errors.add(new BundleError(".", 0, 0, "the bundle has no packs; expected folders named " + packs.keySet()));
            }
            if (!errors.isEmpty()) {
                errors.sort(Comparator.comparing(BundleError::file).thenComparingInt(BundleError::line));
                throw new BundleException(errors);
            }
            return new RuleBundle(files.revision(), clock.instant(), files, compiled, warnings);
        } finally {
            builds.forEach(PackBuild::cancel);
            cache.endCompile();
        }
    }

    /** The cache and the compile threads, as packs see them; used under the compiler's lock. */
    private final PackBuild.Units units = new PackBuild.Units() {
        @Override
        public UnitBuilder.Built cached(CompileUnit unit) {
            UnitBuilder.Built hit = cache.use(unit.key());
            (hit == null ? unitsBuilt : unitsReused).incrementAndGet();
            return hit;
        }

        @Override
        public Future<UnitBuilder.Outcome> build(CompileUnit unit, DrlIndex index) {
            return pool().submit(() -> buildSafely(unit, index, store));
        }

        @Override
        public void keep(UnitBuilder.Built built) {
            cache.put(built);
        }
    };

    /** A unit's build; a Drools crash is the unit's error, never the caller's exception. */
    private static UnitBuilder.Outcome buildSafely(CompileUnit unit, DrlIndex index, UnitStore store) {
        try {
            return UnitBuilder.build(unit, index, true, store);
        } catch (RuntimeException | LinkageError e) {
            return new UnitBuilder.Outcome(null, List.of(new BundleError(unit.firstFile(), 0, 0,
                    "the rule compiler failed on " + unit.label() + ": " + e)));
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
