package io.signalman.engine;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the active bundle. A new bundle replaces the active one only when it compiled and passed
 * every check, in one reference swap, so a decision always sees one whole bundle.
 */
public final class Engine {

    /** A bundle that was refused, and why. */
    public record Refusal(Instant at, String revision, List<BundleError> errors) {
    }

    private final Path rulesDir;
    private final BundleCompiler compiler;
    private final Gate gate;
    private final AtomicReference<RuleBundle> active = new AtomicReference<>();
    private final AtomicReference<Refusal> lastRefused = new AtomicReference<>();
    private final AtomicLong loads = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();
    /** Told that a load is about to read the rules folder, before it reads. */
    private final List<Runnable> reading = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Told of every bundle made active, on the loading thread, after the swap. */
    private final List<java.util.function.Consumer<RuleBundle>> loaded = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Engine(Path rulesDir, BundleCompiler compiler) {
        this(rulesDir, compiler, Gate.NONE);
    }

    /** A new compiler of the same packs as this engine's (for drafts: its cache is its own). */
    public BundleCompiler newCompiler() {
        return compiler.sibling();
    }

    public Engine(Path rulesDir, BundleCompiler compiler, Gate gate) {
        this.rulesDir = rulesDir;
        this.compiler = compiler;
        this.gate = gate;
    }

    public Path rulesDir() {
        return rulesDir;
    }

    /**
     * Compiles the rules directory, runs the gate, and only if both pass makes it the active
     * bundle. Blocking: run on a worker thread. Loads are serialized (a watcher and an admin may
     * ask at once); on failure the previous bundle keeps serving and the refusal is kept.
     */
    public RuleBundle load() throws BundleException {
        return load(b -> { });
    }

    /**
     * {@link #load()}, with {@code commit} run once the bundle compiled and passed the gate, just
     * before it is made active: an activation in a cluster makes the revision the cluster's there
     * (a compare-and-set); when {@code commit} throws, nothing is made active and the exception
     * goes to the caller as it is.
     */
    public synchronized RuleBundle load(java.util.function.Consumer<RuleBundle> commit) throws BundleException {
        String revision = null;
        reading.forEach(Runnable::run);
        try {
            BundleFiles files = BundleFiles.read(rulesDir);
            revision = files.revision();
            RuleBundle bundle = compiler.compile(files);
            List<BundleError> refused = gate.check(bundle);
            if (!refused.isEmpty()) {
                throw new GateRefused(refused);
            }
            commit.accept(bundle);
            bundle.packs().values().forEach(CompiledPack::gatePassed);
            active.set(bundle);
            loads.incrementAndGet();
            loaded.forEach(l -> l.accept(bundle));
            return bundle;
        } catch (BundleException e) {
            refusals.incrementAndGet();
            lastRefused.set(new Refusal(Instant.now(), revision, e.errors()));
            throw e;
        }
    }

    /**
     * Runs {@code hook} at the start of every {@link #load()}, before the rules are read (the folder
     * watcher: a load asked for by anyone covers what is on disk at that moment).
     */
    public void beforeEachLoad(Runnable hook) {
        reading.add(hook);
    }

    /**
     * Tells {@code listener} of every bundle made active from now on (a reload, an activation, a
     * rollback), on the thread that loaded it, once it serves. It must not load rules itself.
     */
    public void onLoad(java.util.function.Consumer<RuleBundle> listener) {
        loaded.add(listener);
    }

    /** The active bundle; throws when none has loaded yet (the server is not ready). */
    public RuleBundle bundle() {
        RuleBundle b = active.get();
        if (b == null) {
            throw new NoBundleException();
        }
        return b;
    }

    public Optional<RuleBundle> current() {
        return Optional.ofNullable(active.get());
    }

    /** Bundles made active by {@link #load()} since this engine was made, the first included. */
    public long loads() {
        return loads.get();
    }

    /** Bundles {@link #load()} refused since this engine was made. */
    public long refusals() {
        return refusals.get();
    }

    public Optional<Refusal> lastRefused() {
        return Optional.ofNullable(lastRefused.get());
    }
}
