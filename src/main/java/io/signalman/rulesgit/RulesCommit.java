package io.signalman.rulesgit;

import java.util.List;

/**
 * What one commit of the rules folder says: the activation's note as the message, the draft's
 * author as author (further authors of the draft as {@code Co-authored-by:}), the one who
 * activated as committer, and trailers a reader or a tool greps for: {@code Approved-by:} per
 * approver, {@code Audit-Seq:} (the audit log entry that recorded the activation), {@code Trial:}
 * for a trial's promotion, {@code Activation:} (its number in the activation history) and
 * {@code Revision:} (the bundle revision it made live, which {@code signalman rules export}
 * takes).
 *
 * @param trial      the trial promoted, or null
 * @param auditSeq   the audit log's sequence number of the activation's entry, or 0 when none
 */
public record RulesCommit(String note, Identity author, List<Identity> coAuthors, Identity committer, List<String> approvers,
                          long auditSeq, String trial, long activation, String revision) {

    public RulesCommit {
        coAuthors = List.copyOf(coAuthors);
        approvers = List.copyOf(approvers);
    }

    /** The commit message: the note, a blank line, the trailers (the message's last paragraph, as Git reads trailers). */
    public String message() {
        StringBuilder m = new StringBuilder(Trailers.body(note)).append("\n\n");
        coAuthors.forEach(a -> m.append("Co-authored-by: ").append(a.toTrailer()).append('\n'));
        approvers.forEach(a -> m.append("Approved-by: ").append(Trailers.oneLine(a)).append('\n'));
        if (auditSeq > 0) {
            m.append("Audit-Seq: ").append(auditSeq).append('\n');
        }
        if (trial != null && !trial.isBlank()) {
            m.append("Trial: ").append(Trailers.oneLine(trial)).append('\n');
        }
        if (activation > 0) {
            m.append("Activation: ").append(activation).append('\n');
        }
        if (revision != null && !revision.isBlank()) {
            m.append("Revision: ").append(Trailers.oneLine(revision)).append('\n');
        }
        return m.toString();
    }
}
