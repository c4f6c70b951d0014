package io.signalman.trials;

import io.signalman.engine.BundleFiles;

/**
 * Where a trial's candidate comes from: a workbench draft, by id. Given by the server's wiring
 * (trials sit below the workbench and never read its folders themselves).
 */
@FunctionalInterface
public interface DraftSource {

    /**
     * The files of a draft that may go on trial: open, made from the live rules, with no
     * conflict left. Refuses ({@code io.signalman.engine.Refused}) an unknown draft (404), a
     * closed or out-of-date one (409), one with conflicts (422). Blocking file I/O.
     */
    BundleFiles files(String draft);
}
