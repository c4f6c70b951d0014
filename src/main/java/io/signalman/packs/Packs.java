package io.signalman.packs;

import io.signalman.broker.BrokerPack;
import io.signalman.dispatch.DispatchPack;
import io.signalman.engine.BundleCompiler;
import io.signalman.handoff.HandoffPack;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.PackDefinition;
import io.signalman.fsm.FsmPack;
import io.signalman.signals.SignalsPack;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** The packs this build of Signalman knows: the one list HTTP, replay and the CLI read. */
public final class Packs {

    public static final BrokerPack BROKER = new BrokerPack();
    public static final SignalsPack SIGNALS = new SignalsPack();
    public static final FsmPack FSM = new FsmPack();
    public static final DispatchPack DISPATCH = new DispatchPack();
    public static final HandoffPack HANDOFF = new HandoffPack();

    private static final List<DecisionPack<?, ?>> ALL = List.of(BROKER, SIGNALS, FSM, DISPATCH, HANDOFF);

    private Packs() {
    }

    public static List<DecisionPack<?, ?>> all() {
        return ALL;
    }

    public static Optional<DecisionPack<?, ?>> named(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** What the compiler knows of each pack: its shape, vocabulary, reference data and lint. */
    public static List<PackDefinition> definitions() {
        return ALL.stream().map(DecisionPack::definition).toList();
    }

    public static BundleCompiler compiler() {
        return new BundleCompiler(definitions(), Clock.systemUTC());
    }
}
