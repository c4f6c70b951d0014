package io.signalman.signals;

import io.signalman.engine.Collector;
import io.signalman.rulelang.RuleVocabulary;
import java.util.Set;

/**
 * The signals pack's {@code decide}: {@code decide.action("graceful_stop")},
 * {@code decide.action("transition", "command-mode")}, {@code decide.action("custom", "escalate")}.
 */
@RuleVocabulary
public final class RouteAction implements Collector {

    /** The action a route chose: its type, and its value when the type has one. */
    public record Chosen(String type, String value) {
    }

    static final Set<String> PLAIN = Set.of("continue", "graceful_stop", "force_stop");
    static final Set<String> WITH_VALUE = Set.of("transition", "custom");

    private String type;
    private String value;

    @Override
    public void reset() {
        type = null;
        value = null;
    }

    public void action(String type) {
        if (!PLAIN.contains(type)) {
            throw new IllegalArgumentException("action \"" + type + "\" " + (WITH_VALUE.contains(type)
                    ? "needs a value: decide.action(\"" + type + "\", \"...\")" : "is not one of " + PLAIN + " or " + WITH_VALUE));
        }
        this.type = type;
    }

    public void action(String type, String value) {
        if (!WITH_VALUE.contains(type) || value == null || value.isBlank()) {
            throw new IllegalArgumentException("decide.action(type, value) takes transition or custom and a non-blank value");
        }
        this.type = type;
        this.value = value;
    }

    /** What this session's route chose, or null when no route called {@code decide}. */
    Chosen chosen() {
        return type == null ? null : new Chosen(type, value);
    }
}
