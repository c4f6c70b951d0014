package io.signalman.decisions;

import io.signalman.engine.RuleInfo;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live decisions stopped over their budget, counted per revision: one revision whose rules keep
 * breaking the budget on live traffic ({@code --quarantine-after} times within {@link #WINDOW_MS}) is
 * quarantined, once: the server goes back to the last good revision by itself (the workbench
 * records it as an activation of kind {@code quarantine}). Each breach is a log line naming the
 * suspect rule and a count in {@code /metrics}.
 *
 * <p>NOTE: a watchdog's stop cannot say which rule was joining (a join has no frame of its own
 * rule), so the suspect is the pack's costliest rule by the cost model, which is named as such.
 */
public final class Breaches {

    private static final Logger LOG = LoggerFactory.getLogger(Breaches.class);
    static final long WINDOW_MS = 60_000;

    /** A revision to quarantine, with what was seen of it. */
    public record Breach(String revision, String pack, RuleInfo suspect, int count, String why) {

        /** The suspect in words: {@code "name" (file:line)}. */
        public String suspectWords() {
            return suspect == null ? "no rule of the pack" : "\"" + suspect.name() + "\" (" + suspect.file() + ":" + suspect.line() + ")";
        }
    }

    private final LongAdder total = new LongAdder();
    private final LongAdder quarantined = new LongAdder();
    private final Map<String, Deque<Long>> recent = new HashMap<>();
    private final Set<String> done = new HashSet<>();
    private volatile Consumer<Breach> quarantine = b -> { };
    /** One thread: a quarantine compiles and gates, which must not hold a decision worker. */
    private final ExecutorService acting = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "signalman-quarantine");
        t.setDaemon(true);
        return t;
    });

    /** What to do with a revision to quarantine (the workbench goes back to the last good one). */
    public void onQuarantine(Consumer<Breach> action) {
        this.quarantine = action;
    }

    /** Decisions stopped over their budget, since start. */
    public long total() {
        return total.sum();
    }

    /** Revisions quarantined, since start. */
    public long quarantined() {
        return quarantined.sum();
    }

    /** Counts one live decision of {@code revision} stopped over budget. Any thread. */
    void record(String revision, String pack, RuleInfo suspect, String why) {
        total.increment();
        int threshold = io.signalman.cost.Budgets.current().quarantineAfter();
        Breach b;
        synchronized (this) {
            long now = System.currentTimeMillis();
            Deque<Long> times = recent.computeIfAbsent(revision, k -> new ArrayDeque<>());
            times.addLast(now);
            while (!times.isEmpty() && now - times.peekFirst() > WINDOW_MS) {
                times.removeFirst();
            }
            if (recent.size() > 64) {
                recent.keySet().removeIf(r -> !r.equals(revision)); // revisions come and go; keep the bound small
            }
            b = new Breach(revision, pack, suspect, times.size(), why);
            LOG.warn("a {} decision of rules {} went over its budget ({}); suspect: the pack's costliest rule {}; "
                    + "{} within a minute (quarantined at {})", pack, revision, why, b.suspectWords(), times.size(),
                    threshold == 0 ? "never" : String.valueOf(threshold));
            if (threshold == 0 || times.size() < threshold || !done.add(revision)) {
                return;
            }
        }
        quarantined.increment();
        acting.execute(() -> {
            try {
                quarantine.accept(b);
            } catch (RuntimeException e) {
                LOG.error("could not quarantine rules {}: {}", revision, e.getMessage(), e);
            }
        });
    }
}
