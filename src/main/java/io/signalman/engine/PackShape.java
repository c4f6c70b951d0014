package io.signalman.engine;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What every pack declares in the same shape: its name (the folder under {@code rules/} and the
 * {@code pack} of its decisions), the activation group its first-match rules share, and its
 * agenda groups in focus order, taken from the pack's {@link Tier} enum.
 */
public record PackShape(String name, String firstMatchGroup, List<Phase> phases) {

    public PackShape {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(firstMatchGroup, "firstMatchGroup");
        phases = List.copyOf(phases);
    }

    /** A pack whose agenda groups are the constants of {@code tiers}, focused in declaration order. */
    public static <T extends Enum<T> & Tier> PackShape of(String name, String firstMatchGroup, Class<T> tiers) {
        return new PackShape(name, firstMatchGroup, Arrays.stream(tiers.getEnumConstants())
                .map(t -> new Phase(t.agendaGroup(), t.kind())).toList());
    }
}
