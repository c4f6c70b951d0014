package io.signalman.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One node's state: retention by a clock the test moves, the cap on entries, and
 * recovery from snapshot, journal and decision log after a clean stop and after a crash.
 * The store holds strings; one that starts with "done" is finished.
 */
class LocalStateTest {

    private static final StoreSpec<String> SPEC = new StoreSpec<>("notes", TextNode::valueOf, n -> n.asText(),
            s -> s.startsWith("done"));
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(T0);
    private final StateConfig config = new StateConfig(true, Duration.ofDays(7), Duration.ofDays(30), 3, null, clock);

    @Test
    void finishedEntriesGoAfterTheRetentionLiveOnesAfterTheIdleRetentionAndAGetSaysWhen() {
        LocalState state = LocalState.inMemory(config, List.of(SPEC));
        StateStore<String> notes = state.stores().named("notes");
        notes.create("finished", "done: shipped");
        notes.create("live", "drafting");

        // Seven days after their last change, the finished one goes, the live one stays
        clock.advance(Duration.ofDays(7));
        assertEquals(1, state.sweep());
        assertEquals(Optional.empty(), notes.get("finished"));
        assertEquals(Optional.of(T0.plus(Duration.ofDays(7))), notes.expiredAt("finished"));
        assertEquals("drafting", notes.get("live").orElseThrow().value());

        // A change restarts the idle clock
        clock.advance(Duration.ofDays(20));
        long v = notes.get("live").orElseThrow().version();
        notes.compareAndSet("live", v, "still drafting");
        clock.advance(Duration.ofDays(29));
        assertEquals(0, state.sweep());
        clock.advance(Duration.ofDays(1));
        assertEquals(1, state.sweep());
        assertTrue(notes.expiredAt("live").isPresent());

        // /metrics counts: nothing live or finished, two expired since start, and one tombstone: the
        // first one, 50 days old, is past its own retention (7 days) and is gone
        assertArrayEquals(new long[] {0, 0, 1, 2}, state.counts().get("notes"));
        assertEquals(Optional.empty(), notes.expiredAt("finished"));

        // ... and once the last tombstone is past its retention too, the id is simply unknown and free again
        clock.advance(Duration.ofDays(7));
        state.sweep();
        assertEquals(Optional.empty(), notes.expiredAt("live"));
        assertTrue(notes.create("live", "again").isPresent());
    }

    @Test
    void aCreateBeyondTheCapIsRefusedAndAnUpdateIsNot() {
        LocalState state = LocalState.inMemory(config, List.of(SPEC));
        StateStore<String> notes = state.stores().named("notes");
        for (int i = 0; i < 3; i++) {
            notes.create("n" + i, "text");
        }
        assertThrows(StateFull.class, () -> notes.create("n3", "text"));
        assertThrows(StateFull.class, () -> notes.put("n3", "text"));
        assertEquals("new", notes.put("n0", "new").value());
        assertEquals(3, notes.size());
    }

    @Test
    void aCleanStopAndAStartKeepEveryEntryVersionAndTombstone() {
        OnDisk node = open(config, FsyncPolicy.INTERVAL);
        node.notes().create("a", "first");
        Versioned<String> a = decide(node.notes(), node.log(), "a", "second");
        node.notes().create("gone", "done");
        clock.advance(Duration.ofDays(8));
        node.state().sweep();
        node.log().close();
        node.state().close();

        StateStore<String> back = open(config, FsyncPolicy.INTERVAL).notes();
        assertEquals(a, back.get("a").orElseThrow());
        assertTrue(back.expiredAt("gone").isPresent());
        // Versions go on from where they were: an old version never matches again
        assertTrue(back.compareAndSet("a", a.version(), "third").orElseThrow().version() > a.version());
    }

    @Test
    void afterACrashTheJournalAndTheDecisionLogRebuildWhatTheSnapshotMisses() {
        OnDisk node = open(config, FsyncPolicy.ALWAYS);
        node.notes().create("a", "first");
        node.state().snapshot();
        // After the snapshot: a decision (in the log only), a create and a restore (in the journal only)
        Versioned<String> a = decide(node.notes(), node.log(), "a", "decided");
        node.notes().create("b", "created");
        Versioned<String> b = node.notes().put("b", "restored");
        node.log().close(); // the process dies here: no last snapshot

        StateStore<String> back = open(config, FsyncPolicy.ALWAYS).notes();
        assertEquals(a, back.get("a").orElseThrow());
        assertEquals(b, back.get("b").orElseThrow());
    }

    @Test
    void aStopWhileTheUpkeepForcesTheJournalLosesNothingAndFailsNothing() throws Exception {
        // The upkeep forces the journal every millisecond while creates keep it dirty: a stop lands
        // in the middle of a force. It used to interrupt the upkeep, which closed the journal's file
        // under the stop's own last force ("cannot force the state journal", a CI failure).
        StateConfig roomy = config.withMaxEntries(1_000_000);
        for (int round = 0; round < 5; round++) {
            OnDisk node = open(roomy, FsyncPolicy.INTERVAL);
            node.state().start(1);
            long until = System.nanoTime() + Duration.ofMillis(50).toNanos();
            int n = 0;
            while (System.nanoTime() < until) {
                node.notes().create("r" + round + "-" + n++, "text");
            }
            node.log().close();
            node.state().close();

            OnDisk again = open(roomy, FsyncPolicy.INTERVAL);
            for (int i = 0; i < n; i++) {
                assertTrue(again.notes().get("r" + round + "-" + i).isPresent(), "round " + round + ": entry " + i + " of " + n + " kept");
            }
            again.state().close();
        }
    }

    /** A decision's change: compare-and-set, logging the record with its state_after while the key is held. */
    private static Versioned<String> decide(StateStore<String> notes, DecisionLog log, String key, String next) {
        Versioned<String> current = notes.get(key).orElseThrow();
        return notes.compareAndSet(key, current.version(), next, after -> log.append(new DecisionRecord("01" + key + next,
                Instant.now().toString(), "notes", "/test", "sha256:x", Json.object(), Json.object(), TextNode.valueOf(current.value()),
                StateLine.after("notes", key, after, TextNode.valueOf(after.value()))))).orElseThrow();
    }

    /** A node's state on disk, the decision log it recovers from too, and its notes store. */
    private record OnDisk(DecisionLog log, LocalState state, StateStore<String> notes) {
    }

    /** Opens (or, after a stop or a crash, reopens) the decision log and the state under the test's folder, both with {@code policy}. */
    private OnDisk open(StateConfig c, FsyncPolicy policy) {
        DecisionLog log = new DecisionLog(dir.resolve("decisions"), policy, 100);
        LocalState state = LocalState.open(c, List.of(SPEC), dir.resolve("state"), log, policy);
        return new OnDisk(log, state, state.stores().named("notes"));
    }
}
