package io.signalman.fsm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The FSM pack's view of its bundle: the declared machines and, per machine, the transition
 * table read from its rules. Immutable.
 */
public final class Machines {

    private static final Comparator<Transition> TRIED_FIRST = Comparator
            .comparing((Transition t) -> t.rule().salience()).reversed()
            .thenComparingInt(t -> t.rule().index());

    private final Map<String, Machine> machines;
    private final List<Transition> transitions;

    Machines(Map<String, Machine> machines, List<Transition> transitions) {
        this.machines = Map.copyOf(machines);
        this.transitions = transitions.stream().sorted(TRIED_FIRST).toList();
    }

    public Optional<Machine> machine(String name) {
        return Optional.ofNullable(machines.get(name));
    }

    public List<Machine> all() {
        return machines.values().stream().sorted(Comparator.comparing(Machine::name)).toList();
    }

    /** Every transition of a machine, in the order its guards are tried. */
    public List<Transition> transitions(String machine) {
        return transitions.stream().filter(t -> t.machine().equals(machine)).toList();
    }

    /** The rules for one (state, action) pair, in the order they are tried. */
    public List<Transition> candidates(String machine, String from, String action) {
        return transitions.stream().filter(t -> t.machine().equals(machine) && t.from().equals(from)
                && t.action().equals(action)).toList();
    }

    public List<String> validActions(String machine, String from) {
        return new ArrayList<>(new TreeSet<>(transitions.stream()
                .filter(t -> t.machine().equals(machine) && t.from().equals(from)).map(Transition::action).toList()));
    }

    public List<String> actions(String machine) {
        return new ArrayList<>(new TreeSet<>(transitions(machine).stream().map(Transition::action).toList()));
    }

    /** The machine as a Mermaid {@code stateDiagram-v2}, each guard's expression on its edge. */
    public String mermaid(String machine) {
        Machine m = machines.get(machine);
        StringBuilder sb = new StringBuilder("stateDiagram-v2\n");
        sb.append("    [*] --> ").append(m.initial()).append('\n');
        for (Transition t : transitions(machine)) {
            sb.append("    ").append(t.from()).append(" --> ").append(t.to()).append(" : ").append(t.action());
            sb.append(t.guarded() ? " [" + t.guard().replace("\"", "'") + "]" : " [no guard]").append('\n');
        }
        return sb.toString();
    }
}
