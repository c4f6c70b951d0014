package io.signalman.engine;

import java.util.List;

/** A bundle that was refused, with every error found (not only the first). */
public class BundleException extends Exception {

    private final transient List<BundleError> errors;

    public BundleException(List<BundleError> errors) {
        super(summary(errors));
        this.errors = List.copyOf(errors);
    }

    public BundleException(BundleError error) {
        this(List.of(error));
    }

    public List<BundleError> errors() {
        return errors;
    }

    private static String summary(List<BundleError> errors) {
        if (errors.isEmpty()) {
            return "bundle refused";
        }
        return errors.size() + " error(s) in rule bundle, first: " + errors.get(0);
    }
}
