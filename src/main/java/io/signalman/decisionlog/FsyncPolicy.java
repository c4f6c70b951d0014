package io.signalman.decisionlog;

import java.util.Locale;

/**
 * When the decision log forces its writes to the disk. Every policy writes each batch to the
 * operating system as soon as the writer drains the queue (at least every millisecond while
 * records arrive); the policy only decides when the operating system is made to put it on the
 * platter.
 */
public enum FsyncPolicy {
    /** Never force: a crash of the machine (not of the process) may lose the last seconds. */
    NEVER,
    /** Force at most once a second (default): a machine crash loses at most about a second. */
    INTERVAL,
    /** Force after every batch: nothing written is lost, at the cost of throughput. */
    ALWAYS;

    public static FsyncPolicy parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fsync policy must be never, interval or always, not \"" + s + "\"", e);
        }
    }
}
