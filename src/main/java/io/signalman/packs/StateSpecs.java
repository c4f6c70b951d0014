package io.signalman.packs;

import io.signalman.engine.RuleBundle;
import io.signalman.fsm.FsmInstance;
import io.signalman.fsm.FsmPack;
import io.signalman.fsm.FsmService;
import io.signalman.fsm.Machines;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.HandoffPack;
import io.signalman.state.StoreSpec;
import java.util.List;
import java.util.function.Supplier;

/**
 * The stateful packs' stores, as a durable store, export and import need them: the
 * JSON form of a value (the snapshot {@code GET} returns and {@code PUT} takes) and what
 * "finished" means for retention. An FSM instance is finished in a state with no way out in the
 * active rules; a conversation once it ended or terminated.
 */
public final class StateSpecs {

    private StateSpecs() {
    }

    /** Every store; {@code bundles} gives the active rules (finished FSM states depend on them). */
    public static List<StoreSpec<?>> all(Supplier<RuleBundle> bundles) {
        StoreSpec<FsmInstance> fsm = new StoreSpec<>(FsmService.STORE, FsmInstance::snapshot, FsmInstance::fromSnapshot,
                i -> bundles.get().requirePack(FsmPack.NAME).reference().as(Machines.class)
                        .validActions(i.machine(), i.currentState()).isEmpty());
        StoreSpec<ConversationState> handoff = new StoreSpec<>(HandoffPack.NAME, ConversationState::toJson,
                ConversationState::fromJson, c -> c.status() == ConversationState.Status.ENDED
                        || c.status() == ConversationState.Status.TERMINATED);
        return List.of(fsm, handoff);
    }
}
