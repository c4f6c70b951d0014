package io.signalman.broker;

import io.signalman.engine.BundleError;
import io.signalman.engine.ParsedRule;
import io.signalman.rulelang.DecideCall;
import io.signalman.rulelang.Suggest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds recipients named in rules ({@code decide.primary("vp-tradng")}) that have no card in the
 * org chart, and suggests the nearest known id. Reads the decision calls as the rule reader
 * parsed them, so a recipient named through a value or over several lines is checked too, at
 * the line of its call.
 */
final class RecipientCheck {

    private static final List<String> SENDS = List.of("primary", "fanOut");

    private RecipientCheck() {
    }

    static List<BundleError> unknown(List<ParsedRule> rules, OrgChart org) {
        List<BundleError> errors = new ArrayList<>();
        for (ParsedRule r : rules) {
            for (DecideCall call : r.reading().decisions()) {
                if (!SENDS.contains(call.method())) {
                    continue;
                }
                for (String name : call.texts()) {
                    if (!org.knows(name)) {
                        errors.add(new BundleError(r.info().file(), call.line(), call.column(), "rule \"" + r.info().name()
                                + "\" sends to \"" + name + "\", which has no card in " + OrgChart.FILE + suggestion(name, org)));
                    }
                }
            }
        }
        return errors;
    }

    private static String suggestion(String name, OrgChart org) {
        return org.cards().stream().map(AgentCard::id).min(Comparator.comparingInt(id -> Suggest.distance(id, name)))
                .filter(id -> Suggest.distance(id, name) <= 3).map(id -> "; did you mean \"" + id + "\"?")
                .orElse("; add a card for it, or fix the name");
    }
}
