package io.signalman.engine;

import java.util.List;

/**
 * A bundle that compiled and linted, but that the reload gate refused (the golden history
 * changed, an invariant broke, live state would be orphaned). Told apart from a compile error so
 * the refusal leads with the real reason.
 */
public final class GateRefused extends BundleException {

    public GateRefused(List<BundleError> errors) {
        super(errors);
    }

    @Override
    public String getMessage() {
        return "the rules compile, but the gate refused them: " + super.getMessage();
    }
}
