package io.signalman.engine;

import io.signalman.rulelang.RuleReading;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * A rule as the platform indexed it: where it is and how it is ordered ({@code info}), Drools'
 * parse ({@code descr}), and the rule reader's reading of it (patterns with parsed constraints,
 * decision calls), for packs and tools that read conditions and consequences.
 */
public record ParsedRule(RuleInfo info, RuleDescr descr, RuleReading reading) {
}
