package io.signalman.control;

/**
 * The control plane's one store seam, as {@code state/StateStore} is for pack state: where the
 * live revision and its activations, drafts and their versions, the kept revisions, the users and
 * the audit log are held. A single node holds them in its data directory ({@link LocalControl}),
 * laid out as before; a cluster holds them in Hazelcast maps with a backup, written through to
 * PostgreSQL with {@code --state-jdbc} ({@code cluster.HazelcastControl}), so that every node
 * reads and changes one copy. The workbench and people read and write through this seam only.
 */
public interface ControlStore {

    /** Journals by name. */
    String USERS = "users";
    String ACTIVATIONS = "activations";
    String AUDIT = "audit";

    /** Whether the records are the cluster's (false: this node's data directory). */
    boolean shared();

    /** This node's name for records that say where something happened (a cluster member's address). */
    String node();

    /** The journal {@code name} ({@link #USERS}, {@link #ACTIVATIONS}; {@link #AUDIT} only when shared). */
    Journal journal(String name);

    DraftStore drafts();

    RevisionStore revisions();
}
