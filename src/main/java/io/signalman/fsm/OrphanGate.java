package io.signalman.fsm;

import io.signalman.engine.BundleError;
import io.signalman.engine.Gate;
import io.signalman.engine.RuleBundle;
import io.signalman.state.StateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * State survives a reload, so a reload must not strand it: a candidate whose FSM pack
 * no longer defines the machine or the current state of a live instance is refused, naming them.
 */
public final class OrphanGate implements Gate {

    /** At most this many orphans are located in the data files (each look reads them all). */
    static final int LOCATED = 20;

    private final StateStore<FsmInstance> instances;
    private final Function<Set<String>, Map<String, String>> where;

    public OrphanGate(StateStore<FsmInstance> instances) {
        this(instances, ids -> Map.of());
    }

    /**
     * With {@code where}, each orphan is named with the record it was restored from (file, line,
     * byte offset): at start-up, an instance whose state no machine has is damaged or foreign
     * data, and the operator needs to find it.
     */
    public OrphanGate(StateStore<FsmInstance> instances, Function<Set<String>, Map<String, String>> where) {
        this.instances = instances;
        this.where = where;
    }

    @Override
    public List<BundleError> check(RuleBundle candidate) {
        Machines machines = candidate.pack(FsmPack.NAME).map(p -> p.reference().as(Machines.class)).orElse(null);
        Map<String, FsmInstance> orphans = new TreeMap<>();
        instances.forEach((id, v) -> {
            FsmInstance i = v.value();
            Machine m = machines == null ? null : machines.machine(i.machine()).orElse(null);
            if (m == null || !m.defines(i.currentState())) {
                orphans.put(id, i);
            }
        });
        Map<String, String> located = orphans.isEmpty() ? Map.of()
                : where.apply(orphans.keySet().stream().limit(LOCATED).collect(Collectors.toSet()));
        List<BundleError> errors = new ArrayList<>();
        orphans.forEach((id, i) -> {
            Machine m = machines == null ? null : machines.machine(i.machine()).orElse(null);
            String from = located.get(id);
            errors.add(new BundleError(MachineFile.FILE, 0, 0, "live FSM instance \"" + id + "\" is in state \""
                    + i.currentState() + "\" of machine \"" + i.machine() + "\", "
                    + (m == null ? "a machine the rules do not define" : "a state that machine does not have")
                    + (from == null ? "" : " (restored from " + from + ")")
                    + "; keep the state in the rules, or move the instance (PUT /v1/fsm/instances/" + id + ")"
                    + (from == null ? "" : ", or correct the record or restore the file from a backup")));
        });
        return errors;
    }
}
