package io.signalman.cluster;

import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import io.signalman.control.Journal;
import io.signalman.control.QuorumLost;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A journal the cluster shares: entry {@code n} is the key {@code n} (zero-padded) of one
 * Hazelcast map, with one synchronous backup, written through to PostgreSQL with
 * {@code --state-jdbc}. An append is {@code putIfAbsent} of the next number: the partition that
 * owns the key takes exactly one value for it, so of two members appending from the same head one
 * wins and the other catches up. Listeners are told of appends on one thread of this journal's
 * own (from the map's entry events, and from a look every second, so an event lost while members
 * came and went still reaches them).
 */
final class HazelcastJournal implements Journal {

    private final IMap<String, String> map;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService tell;
    /** Entries known to exist: every number up to it is taken (the journal has no gaps). */
    private volatile long known;

    HazelcastJournal(IMap<String, String> map, ScheduledExecutorService tell) {
        this.map = map;
        this.tell = tell;
        map.addEntryListener((EntryAddedListener<String, String>) e -> tell.execute(this::told), false);
        tell.scheduleWithFixedDelay(() -> {
            long before = known;
            if (size() > before) {
                told();
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    static String key(long seq) {
        return String.format("%012d", seq);
    }

    @Override
    public long size() {
        long n = known;
        while (map.containsKey(key(n + 1))) {
            n++;
        }
        if (n > known) {
            known = n;
        }
        return n;
    }

    @Override
    public String get(long seq) {
        return seq < 1 ? null : map.get(key(seq));
    }

    @Override
    public boolean append(long seq, String record) {
        if (seq < 1 || seq > 1 && !map.containsKey(key(seq - 1))) {
            return false;
        }
        try {
            boolean took = map.putIfAbsent(key(seq), record) == null;
            if (took) {
                tell.execute(this::told);
            }
            return took;
        } catch (SplitBrainProtectionException e) {
            throw new QuorumLost("this member is on the smaller side of a split cluster (--cluster-quorum): the change "
                    + "waits until the members find each other again", e);
        }
    }

    @Override
    public void onAppend(Runnable listener) {
        listeners.add(listener);
    }

    private void told() {
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(HazelcastJournal.class).warn("journal {}: {}", map.getName(), e.toString());
            }
        }
    }
}
