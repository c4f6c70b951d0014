package io.signalman.decisions;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.Decision;
import io.signalman.engine.RuleInfo;

/**
 * What a decision's span says (docs/operations.md, "Tracing"): the names a trace view filters
 * on, each also a field of the decision's record.
 */
final class DecisionSpans {

    /** The pack that decided ({@code broker}, {@code signals}, ...). */
    static final AttributeKey<String> PACK = AttributeKey.stringKey("signalman.pack");
    /** The rules revision that decided: the record's {@code rules_revision}. */
    static final AttributeKey<String> REVISION = AttributeKey.stringKey("signalman.revision");
    /** The rule that decided; absent when no rule matched and the pack's default decided. */
    static final AttributeKey<String> RULE = AttributeKey.stringKey("signalman.rule");
    /** The decision's id: the record's {@code decision_id}. */
    static final AttributeKey<String> DECISION_ID = AttributeKey.stringKey("signalman.decision_id");
    /** {@code live}, or {@code candidate} when a trial's candidate rules made the answer. */
    static final AttributeKey<String> ARM = AttributeKey.stringKey("signalman.trial.arm");
    /** The live trial that took part in the decision, when one did. */
    static final AttributeKey<String> TRIAL = AttributeKey.stringKey("signalman.trial.id");

    private DecisionSpans() {
    }

    /** A decision made: who made it, with which rules, in which arm ({@code trial} {@code {"id", "arm"}} or null). */
    static void decided(Span span, Decision<?> d, JsonNode trial) {
        RuleInfo by = d.decidedBy();
        span.setAttribute(DECISION_ID, d.decisionId());
        span.setAttribute(REVISION, d.revision());
        if (by != null) {
            span.setAttribute(RULE, by.name());
        }
        if (trial != null && trial.path("id").isTextual()) {
            span.setAttribute(TRIAL, trial.get("id").asText());
            span.setAttribute(ARM, trial.path("arm").asText(DecisionRecord.LIVE));
        } else {
            span.setAttribute(ARM, DecisionRecord.LIVE);
        }
    }

    /** A decision that did not come: refused over its budget, past its deadline, or broken. */
    static void failed(Span span, Throwable e) {
        span.recordException(e);
        span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
    }
}
