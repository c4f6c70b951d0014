package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Authority patterns as analysts write them in org-chart cards (the broker's authority rule). */
class GlobTest {

    @ParameterizedTest(name = "{0}: {1} matches \"{2}\"")
    @CsvSource(delimiter = '|', textBlock = """
            a trailing star matches anything after the prefix | trade.*      | trade.executed
            a trailing star matches anything after the prefix | trade.*      | trade.
            a trailing star matches anything after the prefix | trade.*      | trade.a.b
            a leading star matches anything before the suffix | *.report     | pnl.report
            a leading star matches anything before the suffix | *.report     | a.b.report
            a pattern without star matches itself             | pnl.report   | pnl.report
            a lone star matches everything                    | *            | anything.at.all
            a lone star matches the empty string              | *            | ''
            a star in the middle matches any run              | trade.*.done | trade.x.done
            a star in the middle matches any run              | trade.*.done | trade.x.y.done
            """)
    void matches(String why, String pattern, String subject) {
        assertTrue(Glob.matches(pattern, subject));
    }

    @ParameterizedTest(name = "{0}: {1} does not match \"{2}\"")
    @CsvSource(delimiter = '|', textBlock = """
            a trailing star does not match another prefix         | trade.*      | trading.x
            a trailing star does not match another prefix         | trade.*      | xtrade.y
            a trailing star needs the prefix's dot                | trade.*      | trade
            a leading star needs the suffix's dot                 | *.report     | report
            a leading star does not match a longer suffix         | *.report     | pnl.reports
            a pattern without star matches only itself            | pnl.report   | pnl.reports
            a pattern without star matches only itself            | pnl.report   | pnl.repor
            a pattern without star matches case-sensitively       | pnl.report   | PNL.report
            a dot in a pattern is a dot, not any character        | pnl.report   | pnlxreport
            a star in the middle needs the dots on both sides     | trade.*.done | trade.done
            """)
    void doesNotMatch(String why, String pattern, String subject) {
        assertFalse(Glob.matches(pattern, subject));
    }
}
