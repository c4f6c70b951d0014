package io.signalman.fsm;

import io.signalman.engine.BundleError;
import io.signalman.engine.Gate;
import io.signalman.engine.RuleBundle;
import io.signalman.state.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * State survives a reload, so a reload must not strand it (SPEC 3.5): a candidate whose FSM pack
 * no longer defines the machine or the current state of a live instance is refused, naming them.
 */
public final class OrphanGate implements Gate {

    private final StateStore<FsmInstance> instances;

    public OrphanGate(StateStore<FsmInstance> instances) {
        this.instances = instances;
    }

    @Override
    public List<BundleError> check(RuleBundle candidate) {
        List<BundleError> errors = new ArrayList<>();
        Machines machines = candidate.pack(FsmPack.NAME).map(p -> p.reference().as(Machines.class)).orElse(null);
        instances.forEach((id, v) -> {
            FsmInstance i = v.value();
            Machine m = machines == null ? null : machines.machine(i.machine()).orElse(null);
            if (m == null || !m.defines(i.currentState())) {
                errors.add(new BundleError(MachineFile.FILE, 0, 0, "live FSM instance \"" + id + "\" is in state \""
                        + i.currentState() + "\" of machine \"" + i.machine() + "\", which the new rules "
                        + (m == null ? "no longer define" : "no longer give that machine")
                        + "; keep the state, or move the instance first (PUT /v1/fsm/instances/" + id + ")"));
            }
        });
        return errors;
    }
}
