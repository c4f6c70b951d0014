package io.signalman.workbench;

import io.signalman.control.RevisionStore;
import io.signalman.engine.BundleFiles;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Copies of bundle revisions, by content hash, held by the control plane's {@link RevisionStore}:
 * every revision that was live before or after an activation (what a rollback restores, a revert
 * undoes and a member that joins loads), and every revision a draft was made from (what a rebase
 * diffs the draft against). Content-addressed, so drafts made from one revision share one copy.
 */
final class Revisions {

    private static final Pattern REVISION = Pattern.compile("sha256:[0-9a-f]{64}");

    private final RevisionStore store;

    Revisions(RevisionStore store) {
        this.store = store;
    }

    /** Keeps a copy of {@code files} (once). Blocking. */
    void keep(BundleFiles files) {
        if (!store.has(files.revision())) {
            store.keep(files.revision(), DraftHandlers.map(files));
        }
    }

    boolean has(String revision) {
        return wellFormed(revision) && store.has(revision);
    }

    /** The files of a kept revision; 404 when there is no copy of it. */
    BundleFiles read(String revision) {
        Map<String, byte[]> files = wellFormed(revision) ? store.read(revision) : null;
        if (files == null) {
            throw new WorkbenchException(404, "unknown_revision", "no copy of revision " + revision + " is kept here");
        }
        BundleFiles b = BundleFiles.of(Path.of("revisions", revision.replace("sha256:", "")), files);
        if (!b.revision().equals(revision)) {
            throw new WorkbenchException(500, "revision_unreadable", "the copy of " + revision + " holds other content ("
                    + b.revision() + "): it was changed");
        }
        return b;
    }

    static boolean wellFormed(String revision) {
        return revision != null && REVISION.matcher(revision).matches();
    }
}
