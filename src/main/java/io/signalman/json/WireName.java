package io.signalman.json;

import java.util.Locale;

/**
 * An enum whose constants go on the wire as their names in lower case ({@code OUT_OF_DATE} is
 * {@code out_of_date}). Renaming such a constant changes what clients read: its name is its wire
 * form.
 */
public interface WireName {

    /** The constant's name; every enum has it already. */
    String name();

    /** The name clients read and send. */
    default String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
