package io.signalman.dispatch;

import io.signalman.engine.Invariant;
import io.signalman.engine.RuleInfo;
import java.util.List;
import java.util.Map;

/** The dispatch pack's invariants, shared by properties, archive properties and the replay gate. */
public final class DispatchInvariants {

    public static final Invariant<InboundMessage, DispatchDecision> FIRST_MATCH = Invariant.of(
            "at most one dispatch rule decides, and matched_by names whether one did",
            (m, d, again) -> {
                long deciding = d.evaluation().fired().stream().filter(RuleInfo::decides).count();
                if (deciding > 1) {
                    return deciding + " dispatch rules fired: " + d.evaluation().fired();
                }
                boolean byDefault = "default".equals(d.outcome().matchedBy());
                if (byDefault != (d.decidedBy() == null)) {
                    return "matched_by " + d.outcome().matchedBy() + " but the deciding rule is " + d.decidedBy();
                }
                return null;
            });

    public static final Invariant<InboundMessage, DispatchDecision> ATTACHMENTS_ARE_HEAVY = Invariant.of(
            "a message with attachments always gets the heavy model",
            (m, d, again) -> d.outcome().model().features().hasAttachments() && d.outcome().model().light()
                    ? "attachments routed to the light model " + d.outcome().model().name() : null);

    public static final Invariant<InboundMessage, DispatchDecision> DETERMINISTIC = Invariant.deterministic(
            "the same message always gets the same decision");

    /**
     * Every id linked to the sender's canonical identity, sent in place of the sender, lands in
     * the same session. The links come from the decision itself (its session policy), so the
     * invariant checks the data the decision was made with.
     */
    public static final Invariant<InboundMessage, DispatchDecision> LINKED_SENDERS_SHARE_A_SESSION = Invariant.of(
            "the same sender through any identity link gets the same session key",
            (m, d, again) -> {
                IdentityLinks links = new IdentityLinks(d.outcome().sessionPolicy().identityLinks());
                String canonical = links.canonical(m.channel(), m.sender());
                for (Map.Entry<String, List<String>> e : links.asMap().entrySet()) {
                    if (canonical.isEmpty() || !GoText.fold(e.getKey()).equals(canonical)) {
                        continue;
                    }
                    for (String alias : e.getValue()) {
                        String key = again.apply(withSender(m, alias)).outcome().sessionKey();
                        if (!key.equals(d.outcome().sessionKey())) {
                            return "sender " + m.sender() + " has session " + d.outcome().sessionKey() + " but its link "
                                    + alias + " has " + key;
                        }
                    }
                }
                return null;
            });

    public static final List<Invariant<InboundMessage, DispatchDecision>> ALL = List.of(FIRST_MATCH, ATTACHMENTS_ARE_HEAVY,
            DETERMINISTIC, LINKED_SENDERS_SHARE_A_SESSION);

    private DispatchInvariants() {
    }

    static InboundMessage withSender(InboundMessage m, String sender) {
        return new InboundMessage(m.id(), m.channel(), m.account(), m.space(), m.chat(), m.topic(), sender, m.mentioned(),
                m.message(), m.history());
    }
}
