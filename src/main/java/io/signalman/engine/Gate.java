package io.signalman.engine;

import java.util.List;

/**
 * What a compiled bundle must pass before it serves: the golden history replays
 * unchanged, every invariant holds, no live state is orphaned. Runs on the reloading thread.
 */
@FunctionalInterface
public interface Gate {

    Gate NONE = candidate -> List.of();

    /** The reasons to refuse the candidate, each located as precisely as it can be; empty to pass. */
    List<BundleError> check(RuleBundle candidate);

    default Gate and(Gate other) {
        return candidate -> {
            List<BundleError> errors = new java.util.ArrayList<>(check(candidate));
            errors.addAll(other.check(candidate));
            return errors;
        };
    }
}
