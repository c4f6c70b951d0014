package io.signalman.replay;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The first {@code limit} items by archive position (file index, then line): what a report keeps
 * as examples. Keeping the smallest positions, rather than the first ones seen, makes the result
 * the same whichever thread or cluster member saw which record, and merging two of them is exact.
 */
final class Firsts<T extends Serializable> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int limit;
    private final TreeMap<Long, T> items = new TreeMap<>();

    Firsts(int limit) {
        this.limit = limit;
    }

    /** An archive position as one sortable number. */
    static long position(int file, int line) {
        return ((long) file << 32) | (line & 0xFFFFFFFFL);
    }

    /** Whether an item at this position would be kept (so that costly work for it is worth doing). */
    boolean wants(long position) {
        return items.size() < limit || position < items.lastKey();
    }

    void offer(long position, T item) {
        if (!wants(position)) {
            return;
        }
        items.put(position, item);
        if (items.size() > limit) {
            items.pollLastEntry();
        }
    }

    void addAll(Firsts<T> other) {
        other.items.forEach(this::offer);
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    long first() {
        return items.firstKey();
    }

    List<T> values() {
        return new ArrayList<>(items.values());
    }

    Map<Long, T> entries() {
        return items;
    }
}
