package io.signalman.engine.explain;

/**
 * A constraint the explainer will not evaluate (a shape it does not know, a method it cannot
 * reach). Explain then says so instead of guessing a value.
 */
public final class Unevaluable extends Exception {

    public Unevaluable(String message) {
        super(message, null, false, false);
    }
}
