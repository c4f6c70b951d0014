package io.signalman.fsm;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.engine.Decision;
import io.signalman.engine.Refused;
import io.signalman.engine.RuleBundle;
import io.signalman.state.Expired;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * FSM instances over a {@link StateStore}: create, read, apply an action, restore a snapshot.
 * Applying an action reads the state, decides, and compare-and-sets; when another request won,
 * it reads and decides again, so N concurrent actions apply as some serial order and no update is
 * lost. Blocking: call from a worker thread.
 */
public final class FsmService {

    /** The name of the store FSM instances live in. */
    public static final String STORE = "fsm";
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");
    private static final int MAX_ATTEMPTS = 10_000;

    private final StateStore<FsmInstance> store;
    private final Supplier<RuleBundle> bundles;
    private final Decider decider;

    /** An applied action: the step decided, its decision, and whether it changed the state. */
    public record Applied(FsmStep step, Decision<FsmOutcome> decision) {
    }

    /** Who decides an action: the pack with the active rules, or the server's decision service (a live trial's arms). */
    @FunctionalInterface
    public interface Decider {
        Decision<FsmOutcome> decide(FsmStep step, boolean explain);
    }

    public FsmService(StateStore<FsmInstance> store, Supplier<RuleBundle> bundles, FsmPack pack) {
        this(store, bundles, (step, explain) -> pack.decide(bundles.get(), step, explain));
    }

    /** Decides through {@code decider} (which must decide with {@code bundles}' rules or a trial's candidate). */
    public FsmService(StateStore<FsmInstance> store, Supplier<RuleBundle> bundles, Decider decider) {
        this.store = store;
        this.bundles = bundles;
        this.decider = decider;
    }

    public FsmInstance create(String id, String machine) {
        checkId(id);
        Machine m = machines().machine(machine).orElseThrow(() -> new Refused(Refused.Kind.UNPROCESSABLE, "unknown_machine",
                "no machine \"" + machine + "\"; machines: " + machines().all().stream().map(Machine::name).toList()));
        FsmInstance fresh = new FsmInstance(m.name(), m.initial());
        store.create(id, fresh).orElseThrow(() -> new Refused(Refused.Kind.CONFLICT, "instance_exists",
                "instance \"" + id + "\" already exists"));
        return fresh;
    }

    public FsmInstance get(String id) {
        return store.get(id).map(Versioned::value).orElseThrow(() -> missing(id));
    }

    /** The store the instances live in. */
    public StateStore<FsmInstance> store() {
        return store;
    }

    public Applied act(String id, String action, JsonNode payload, boolean explain) {
        return act(id, action, payload, explain, (applied, after) -> applied);
    }

    /**
     * What is done with an applied action (the transports log it): {@code after} is the instance
     * as the action left it, or null when the action was refused and changed nothing. For a move,
     * it runs while the store holds the change, so that the decision log holds one instance's
     * moves in the order they were made.
     */
    @FunctionalInterface
    public interface Commit<R> {
        R commit(Applied applied, Versioned<FsmInstance> after);
    }

    /** Applies an action and commits it with {@code commit}; see {@link Commit}. */
    public <R> R act(String id, String action, JsonNode payload, boolean explain, Commit<R> commit) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Versioned<FsmInstance> current = store.get(id).orElseThrow(() -> missing(id));
            FsmStep step = new FsmStep(id, action, payload, current.value());
            Decision<FsmOutcome> d = decider.decide(step, explain);
            Applied applied = new Applied(step, d);
            if (!(d.outcome() instanceof FsmOutcome.Moved m)) {
                return commit.commit(applied, null);
            }
            List<R> out = new ArrayList<>(1);
            if (store.compareAndSet(id, current.version(), new FsmInstance(m.machine(), m.to()),
                    after -> out.add(commit.commit(applied, after))).isPresent()) {
                return out.get(0);
            }
        }
        throw new IllegalStateException("instance " + id + " changed under " + MAX_ATTEMPTS + " attempts in a row");
    }

    /** Restores a checkpoint; the machine and state must exist in the active rules (else 422). */
    public FsmInstance restore(String id, FsmInstance snapshot) {
        checkId(id);
        Machine m = machines().machine(snapshot.machine()).orElseThrow(() -> new Refused(Refused.Kind.UNPROCESSABLE,
                "unknown_machine", "no machine \"" + snapshot.machine() + "\" in the rules"));
        if (!m.defines(snapshot.currentState())) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "unknown_state", "machine " + m.name() + " has no state \""
                    + snapshot.currentState() + "\"; its states: " + m.states());
        }
        store.put(id, snapshot);
        return snapshot;
    }

    public Machines machines() {
        return bundles.get().requirePack(FsmPack.NAME).reference().as(Machines.class);
    }

    /** The FSM state of an agent for the signals pack's strategy tier (the instance named like the agent). */
    public java.util.Optional<FsmInstance> ofAgent(String agent) {
        return store.get(agent).map(Versioned::value);
    }

    private static void checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "invalid_id",
                    "an instance id is 1 to 200 letters, digits or ._:@- characters");
        }
    }

    /** 410 when retention removed the instance (its tombstone still kept), else 404. */
    private Refused missing(String id) {
        return store.expiredAt(id).map(at -> Expired.of("FSM instance", id, at)).orElseGet(() -> notFound(id));
    }

    private static Refused notFound(String id) {
        return new Refused(Refused.Kind.NOT_FOUND, "unknown_instance", "no FSM instance \"" + id + "\"");
    }
}
