package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Authority patterns as analysts write them in org-chart cards (the broker's authority rule). */
class GlobTest {

    @Test
    void aTrailingStarMatchesAnythingAfterThePrefix() {
        assertTrue(Glob.matches("trade.*", "trade.executed"));
        assertTrue(Glob.matches("trade.*", "trade."));
        assertTrue(Glob.matches("trade.*", "trade.a.b"));
    }

    @Test
    void aTrailingStarDoesNotMatchAnotherPrefix() {
        assertFalse(Glob.matches("trade.*", "trading.x"));
        assertFalse(Glob.matches("trade.*", "xtrade.y"));
        assertFalse(Glob.matches("trade.*", "trade"));
    }

    @Test
    void aLeadingStarMatchesAnythingBeforeTheSuffix() {
        assertTrue(Glob.matches("*.report", "pnl.report"));
        assertTrue(Glob.matches("*.report", "a.b.report"));
        assertFalse(Glob.matches("*.report", "report"));
        assertFalse(Glob.matches("*.report", "pnl.reports"));
    }

    @Test
    void aPatternWithoutStarMatchesOnlyItselfCaseSensitively() {
        assertTrue(Glob.matches("pnl.report", "pnl.report"));
        assertFalse(Glob.matches("pnl.report", "pnl.reports"));
        assertFalse(Glob.matches("pnl.report", "pnl.repor"));
        assertFalse(Glob.matches("pnl.report", "PNL.report"));
        assertFalse(Glob.matches("pnl.report", "pnlxreport"));
    }

    @Test
    void aLoneStarMatchesEverythingIncludingTheEmptyString() {
        assertTrue(Glob.matches("*", ""));
        assertTrue(Glob.matches("*", "anything.at.all"));
    }

    @Test
    void aStarInTheMiddleMatchesAnyRun() {
        assertTrue(Glob.matches("trade.*.done", "trade.x.done"));
        assertTrue(Glob.matches("trade.*.done", "trade.x.y.done"));
        assertFalse(Glob.matches("trade.*.done", "trade.done"));
    }
}
