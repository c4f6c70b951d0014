package io.signalman.replay;

import io.signalman.engine.BundleException;
import io.signalman.engine.RuleBundle;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The candidate (and baseline) rules each archive file replays with: the bundles as given, or
 * over the reference data of the file's {@code reference/} folder. Worked out once per folder,
 * before any record is replayed, so that a refused reference folder is reported once.
 */
final class ReplayBundles {

    /** The rules one file replays with; {@code baseline} is null when comparing with the recorded decisions. */
    record ForFile(RuleBundle candidate, RuleBundle baseline) {
    }

    private final RuleBundle candidate;
    private final RuleBundle baseline;
    private final Map<Map<String, byte[]>, ForFile> byReference = new IdentityHashMap<>();
    private final Map<Archive.ArchiveFile, String> refused = new IdentityHashMap<>();
    private final Map<Map<String, byte[]>, String> errors = new IdentityHashMap<>();

    ReplayBundles(RuleBundle candidate, RuleBundle baseline, Archive archive) {
        this.candidate = candidate;
        this.baseline = baseline;
        for (Archive.ArchiveFile f : archive.files()) {
            if (byReference.containsKey(f.reference())) {
                continue;
            }
            try {
                byReference.put(f.reference(), new ForFile(candidate.withReference(f.reference()),
                        baseline == null ? null : baseline.withReference(f.reference())));
            } catch (BundleException e) {
                byReference.put(f.reference(), null);
                errors.put(f.reference(), e.errors().toString());
            }
        }
        for (Archive.ArchiveFile f : archive.files()) {
            if (byReference.get(f.reference()) == null) {
                refused.put(f, f.path() + ": its reference/ data is refused: " + errors.get(f.reference()));
            }
        }
    }

    RuleBundle candidate() {
        return candidate;
    }

    RuleBundle baseline() {
        return baseline;
    }

    /** Why the file cannot be replayed, or null when it can. */
    String refused(Archive.ArchiveFile file) {
        return refused.get(file);
    }

    /** Read-only after construction, so any replaying thread may ask. */
    ForFile forFile(Archive.ArchiveFile file) {
        return byReference.get(file.reference());
    }
}
