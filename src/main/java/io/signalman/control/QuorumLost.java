package io.signalman.control;

/**
 * A change refused because this member is on the smaller side of a split cluster
 * ({@code --cluster-quorum}): activations, user changes and audit entries wait for the quorum
 * (503 {@code quorum_lost}), while decisions go on on the last revision.
 */
public final class QuorumLost extends RuntimeException {

    public QuorumLost(String message, Throwable cause) {
        super(message, cause);
    }
}
