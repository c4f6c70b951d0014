package io.signalman.control;

import java.util.List;

/**
 * Named records that change as a whole, each by compare-and-set on its previous value: drafts,
 * kept revisions. A change names the value it was made to; two changes made to one value cannot
 * both land, so no save loses another's.
 */
public interface Documents {

    /** The value of {@code key}, or null. */
    String get(String key);

    /** Stores {@code value} under a new {@code key}; false when the key is taken. */
    boolean create(String key, String value);

    /** Replaces {@code expected} by {@code next}; false when the value is no longer {@code expected}. */
    boolean replace(String key, String expected, String next);

    /** Removes {@code key} whatever it holds. */
    void remove(String key);

    /** Every key, sorted. */
    List<String> keys();
}
