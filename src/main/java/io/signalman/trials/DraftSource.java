package io.signalman.trials;

import io.signalman.engine.BundleFiles;

/**
 * Where a trial's candidate comes from: a workbench draft, by id, and what its approvals allow.
 * Given by the server's wiring (trials sit below the workbench and never read its folders or
 * judge its approvals themselves).
 */
public interface DraftSource {

    /**
     * The files of a draft that may go on trial: open, made from the live rules, with no
     * conflict left. Refuses ({@code io.signalman.engine.Refused}) an unknown draft (404), a
     * closed or out-of-date one (409), one with conflicts (422). Blocking file I/O.
     */
    BundleFiles files(String draft);

    /**
     * Refuses ({@code io.signalman.engine.Refused}, 409 {@code approval_required}, as an activation
     * is refused) unless {@code draft} has, for exactly the content {@code contentHash}, the
     * approvals an activation of it would need: a canary answers real requests at any percent.
     * A shadow changes no answer and needs none. Blocking file I/O.
     */
    void approvedForCanary(String draft, String contentHash);
}
