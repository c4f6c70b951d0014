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
        assertEquals(4, merged.read());
        assertEquals(2, merged.records());
        assertEquals(1, merged.unchanged());
        assertEquals(1, merged.changed());
        assertEquals(2, merged.violationCount(), "a violation counted by one part survives the merge");
        assertEquals(2, merged.problemCount());
        assertEquals(one.report().toJson(), merged.toJson());
    }

    /** One thread's share: a record changed (file 0) or unchanged (file 1), a skipped one, a violation, a problem. */
    private static ReplayTally part(int file) {
        ReplayTally t = new ReplayTally();
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
