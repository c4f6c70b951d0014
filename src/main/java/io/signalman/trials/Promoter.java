package io.signalman.trials;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.people.Principal;

/**
 * Makes a trial's candidate the live rules through the same reload gate and activation record as
 * a workbench activation, the record naming the trial and its figures. Given by the server's
 * wiring. Blocking (compile, replay, gate).
 */
@FunctionalInterface
public interface Promoter {

    /**
     * @return the activation record as written (its {@code seq} is the activation's number)
     * @throws io.signalman.engine.Refused when the gate refuses the candidate (422 with the errors), or the golden
     *                                     history would change and that was not accepted (409)
     */
    ObjectNode promote(Promotion promotion);

    /**
     * What is promoted: the trial, its draft, the candidate's files as the trial ran them, the note
     * for the record, whether golden-history changes are accepted, the trial's figures, and who
     * promotes it (an operator: the activation record's {@code who}; the draft's approvals are
     * checked for the candidate's content as for any activation).
     */
    record Promotion(String trial, String draft, BundleFiles candidate, String note, boolean acceptGoldenChanges,
                     ObjectNode figures, Principal by) {
    }
}
