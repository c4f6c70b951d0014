package io.signalman.broker;

import io.signalman.rulelang.RuleVocabulary;
import java.util.Objects;

/**
 * The fact broker rules see for one message: the envelope flattened so a condition reads
 * {@code Message( priority == "critical" )}. Equality is by value, which is what a rule that
 * joins two patterns on the same message wants.
 */
@RuleVocabulary
public record Message(String id, String fromAgent, String priority, String type, String subtype) {

    public Message {
        Objects.requireNonNull(fromAgent, "fromAgent");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(subtype, "subtype");
    }
}
