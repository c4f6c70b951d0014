package io.signalman.engine;

import org.drools.drl.ast.descr.RuleDescr;

/** A rule as the platform indexed it, with the parser's tree for packs that read conditions. */
public record ParsedRule(RuleInfo info, RuleDescr descr) {
}
