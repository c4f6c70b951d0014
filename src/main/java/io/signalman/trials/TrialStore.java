package io.signalman.trials;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where trials live: on one node, files under {@code <data>/trials/} ({@link FileTrialStore});
 * in a cluster, maps every member shares ({@link SharedTrialStore}). A trial is durable state: it
 * is written before a change to it is answered, and at most one trial runs at a time.
 */
interface TrialStore extends AutoCloseable {

    /** Every trial kept, newest first. */
    List<Trial> all();

    Optional<Trial> get(String id);

    /** Keeps a new running trial and its candidate's files; false (nothing kept) when another trial runs. */
    boolean start(Trial trial, BundleFiles candidate);

    /** Writes {@code after} over {@code before}; false, changing nothing, when the stored trial is no longer {@code before}. */
    boolean replace(Trial before, Trial after);

    /** The candidate's files, as kept when the trial started. */
    BundleFiles candidate(String id);

    /** This node's figures for a trial ({@link Tally#snapshot}), kept for the others to add up. */
    void publish(String id, String node, ObjectNode figures);

    /** Every node's last figures for a trial, by node. */
    Map<String, ObjectNode> figures(String id);

    @Override
    void close();
}
