package io.signalman.fsm;

import java.util.List;

/** A machine declared in {@code rules/fsm/machines.json}: its name, initial state and states. */
public record Machine(String name, String initial, List<String> states) {

    public Machine {
        states = states == null ? null : List.copyOf(states);
    }

    public boolean defines(String state) {
        return states.contains(state);
    }
}
