package io.signalman.engine;

import java.util.Locale;

/**
 * One agenda group a pack focuses, written once in Java as an enum constant: a pack's enum lists
 * its groups in the order they are focused, and the lint refuses a rule whose {@code agenda-group}
 * is not one of them (tier and group names are enums the DRL is checked against). The
 * DRL name is the constant's, lower-cased, {@code _} written {@code -}: {@code NO_SIGNAL} is
 * {@code agenda-group "no-signal"}.
 */
public interface Tier {

    /** The constant's name (every enum has it). */
    String name();

    /** The name the DRL writes in {@code agenda-group "..."}. */
    default String agendaGroup() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the group's rules decide (first match, the default), classify or add. */
    default Phase.Kind kind() {
        return Phase.Kind.FIRST_MATCH;
    }
}
