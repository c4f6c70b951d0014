package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A merge carries every count: the parts of a replay add up to what one thread would have counted. */
class ReplayTallyTest {

    @Test
    void mergingTwoPartsKeepsEveryCountTheViolationsIncluded() {
        ReplayTally a = part(0);
        ReplayTally b = part(1);
        ReplayTally one = part(0);
        one.merge(part(1));

        a.merge(b);

        ReplayReport merged = a.report();
        assertEquals(4, merged.counts().read());
        assertEquals(2, merged.counts().records());
        assertEquals(1, merged.counts().unchanged());
        assertEquals(1, merged.counts().changed());
        assertEquals(2, merged.counts().violationCount(), "a violation counted by one part survives the merge");
        assertEquals(3, merged.counts().determinismChecked(), "the records whose determinism each part checked add up");
        assertEquals(2, merged.counts().problemCount());
        assertEquals(one.report().toJson(), merged.toJson());
    }

    @Test
    void theDeterminismModeOfTheSharesSurvivesAMergeIntoAnEmptyTally() {
        // Given a cluster job's accumulator, which starts empty, and a member's share that checked every record
        ReplayTally accumulator = new ReplayTally();
        ReplayTally share = part(0);
        share.determinism(Determinism.ALL);

        // When the share is merged in
        accumulator.merge(share);

        // Then the report says every record was checked, with the share's count
        ReplayReport r = accumulator.report();
        assertEquals(Determinism.ALL, r.determinism());
        assertEquals(1, r.counts().determinismChecked());
        assertEquals("all", r.toJson().path("determinism").path("mode").asText());
        assertEquals(1, r.toJson().path("determinism").path("checked").asLong());
    }

    /**
     * One thread's share: a record changed (file 0) or unchanged (file 1), a skipped one, a
     * violation, a problem, and determinism checked on one record (two in file 1's share).
     */
    private static ReplayTally part(int file) {
        ReplayTally t = new ReplayTally();
        for (int i = 0; i <= file; i++) {
            t.determinismChecked();
        }
        long at = Firsts.position(file, 1);
        t.selected(Selection.Skip.NONE);
        t.selected(Selection.Skip.SAMPLE);
        if (file == 0) {
            t.changed(at, "old", "new", new ReplayReport.Change("f" + file, 1, "d", Json.object(), Map.of()));
        } else {
            t.unchanged();
        }
        t.violation(at, new ReplayReport.Violation("exhaustive", "broker", "f" + file, 1, "d", Json.object(), "broke", Json.object()));
        t.problem(at, new ReplayReport.Problem("f" + file + ":1: unreadable record", true, false));
        return t;
    }
}
