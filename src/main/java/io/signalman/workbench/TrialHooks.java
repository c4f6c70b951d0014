package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.engine.Refused;
import io.signalman.people.Approvals;
import io.signalman.trials.DraftSource;
import io.signalman.trials.Promoter;
import java.util.List;

/**
 * What live trials take from the workbench: a draft's files to try and the approvals a canary
 * needs ({@link DraftSource}), and the activation a promoted trial goes live through
 * ({@link Promoter}), the very one a draft's activation uses (same gate, same record, same
 * {@link FourEyes}). Refusals are {@link Refused}, which every transport maps, since a trial is
 * not asked for through the workbench's own routes only. Blocking: workers.
 */
final class TrialHooks implements DraftSource, Promoter {

    private final Engine engine;
    private final Drafts drafts;
    private final Activations activations;
    private final FourEyes fourEyes;

    TrialHooks(Engine engine, Drafts drafts, Activations activations, FourEyes fourEyes) {
        this.engine = engine;
        this.drafts = drafts;
        this.activations = activations;
        this.fourEyes = fourEyes;
    }

    /** The draft as it may go on trial: known, open, made from the live rules, without conflicts. */
    @Override
    public BundleFiles files(String draft) {
        try {
            String live = BundleFiles.read(engine.rulesDir()).revision();
            DraftStatus status = DraftStatus.of(drafts.meta(draft), live);
            if (status.closed()) {
                throw new Refused(Refused.Kind.CONFLICT, "draft_closed", "draft " + draft + " is " + status.wire()
                        + ": only an open draft goes on trial");
            }
            if (status == DraftStatus.OUT_OF_DATE) {
                throw new Refused(Refused.Kind.CONFLICT, "draft_out_of_date", "the rules changed since draft " + draft
                        + " was made: rebase it onto the live rules first, so that the trial compares it with them");
            }
            BundleFiles files = drafts.files(draft);
            List<BundleError> conflicts = DraftCheck.conflicts(files);
            if (!conflicts.isEmpty()) {
                throw new Refused(Refused.Kind.UNPROCESSABLE, "unresolved_conflicts", conflicts.size()
                        + " conflict(s) from a rebase or revert are not resolved in draft " + draft);
            }
            return files;
        } catch (WorkbenchException e) {
            throw refused(e);
        } catch (BundleException e) {
            throw new IllegalStateException("the rules folder cannot be read: " + e.errors(), e);
        }
    }

    /** A canary answers for real: it needs what an activation of the same content needs. */
    @Override
    public void approvedForCanary(String draft, String contentHash) {
        try {
            fourEyes.require(draft, contentHash, "run as a canary");
        } catch (WorkbenchException e) {
            throw refused(e);
        }
    }

    /**
     * The candidate as the trial ran it goes live through the workbench's activation, with the
     * approvals any activation needs: those of its draft given to exactly the candidate's content
     * (409 {@code approval_required} otherwise); the draft it came from is closed as activated
     * when it still holds exactly those files.
     */
    @Override
    public ObjectNode promote(Promotion p) {
        ObjectNode trial = io.signalman.json.Json.object().put("id", p.trial()).put("draft", p.draft());
        trial.set("figures", p.figures());
        ObjectNode about = io.signalman.json.Json.object().put("draft", p.draft());
        about.set("trial", trial);
        ObjectNode rec;
        try {
            Approvals.Standing standing = fourEyes.require(p.draft(), p.candidate().revision(), "be promoted");
            DraftRecords.authors(drafts.meta(p.draft())).forEach(about.withArray("authors")::add);
            standing.approvals().forEach(a -> about.withArray("approvals").addObject().put("user", a.user())
                    .put("at", a.at()).put("note", a.note()).put("audit_seq", a.seq()));
            rec = activations.activate(p.candidate(), "trial", "trial " + p.trial() + " (draft " + p.draft() + ")",
                    p.by(), p.note(), p.acceptGoldenChanges(), about, "trial_promoted");
        } catch (WorkbenchException e) {
            throw refused(e);
        }
        try {
            if (drafts.files(p.draft()).revision().equals(p.candidate().revision())
                    && !DraftStatus.of(drafts.meta(p.draft()), rec.path("new_revision").asText()).closed()) {
                drafts.activating(p.draft(), null);
                drafts.activated(p.draft(), rec.path("seq").asLong());
            }
        } catch (WorkbenchException e) {
            // The draft was discarded or removed meanwhile: the activation stands, the draft stays as it is.
        }
        return rec;
    }

    /** A workbench refusal, for the transports: its status as a kind, its code, message and details kept. */
    private static Refused refused(WorkbenchException e) {
        ObjectNode n = e.toJson();
        Refused.Kind kind = switch (e.status()) {
            case 404 -> Refused.Kind.NOT_FOUND;
            case 409 -> Refused.Kind.CONFLICT;
            case 400, 422 -> Refused.Kind.UNPROCESSABLE;
            default -> null;
        };
        if (kind == null) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new Refused(kind, n.path("error").asText(), e.getMessage(), n.has("details") ? (ObjectNode) n.get("details") : null);
    }
}
