package io.signalman.control;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A journal in memory with the cluster's semantics (entry n taken once, by whoever asks first), for tests of its readers. */
public final class MemoryJournal implements Journal {

    private final List<String> entries = new ArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Override
    public synchronized long size() {
        return entries.size();
    }

    @Override
    public synchronized String get(long seq) {
        return seq >= 1 && seq <= entries.size() ? entries.get((int) seq - 1) : null;
    }

    @Override
    public boolean append(long seq, String record) {
        synchronized (this) {
            if (seq != entries.size() + 1) {
                return false;
            }
            entries.add(record);
        }
        listeners.forEach(Runnable::run);
        return true;
    }

    @Override
    public void onAppend(Runnable listener) {
        listeners.add(listener);
    }
}
