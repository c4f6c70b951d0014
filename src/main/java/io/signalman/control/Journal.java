package io.signalman.control;

/**
 * An append-only, ordered log of records that whoever holds it shares: the users' changes, the
 * activations, the audit log. Entries are numbered from 1 and never change. An append names the
 * number it takes, and gets it only when the journal holds exactly the entries before it: that is
 * the compare-and-set on the journal's head, so that of two writers that read the same head,
 * exactly one appends, and the other catches up and decides again. On one node the journal is a
 * file of the data directory; in a cluster it is a Hazelcast map, written through to PostgreSQL
 * with {@code --state-jdbc}.
 */
public interface Journal {

    /** The number of the newest entry (0: none yet). Blocking in a cluster: call it on a worker. */
    long size();

    /** Entry {@code seq} (from 1), or null when there is none (yet). */
    String get(long seq);

    /**
     * Appends {@code record} as entry {@code seq} when the journal holds exactly {@code seq - 1}
     * entries; false when another writer took {@code seq} first.
     *
     * @throws QuorumLost in a cluster that lost its quorum (nothing was appended)
     */
    boolean append(long seq, String record);

    /** {@code listener} runs after any holder appends (in a cluster, on a Hazelcast thread: keep it short). */
    void onAppend(Runnable listener);
}
