package io.signalman.replay;

/**
 * Told how a replay is getting on, from the thread that reads the archive (keep it quick: the
 * reading waits for it). The command line draws a progress bar with it; the workbench can show
 * the same without the command line.
 */
public interface ReplayListener {

    ReplayListener NONE = (records, bytesRead, totalBytes) -> { };

    /**
     * @param records records handed to the replaying threads so far (a few chunks ahead of the replayed ones)
     * @param bytesRead bytes of the archive's files read so far (compressed bytes for {@code .gz})
     * @param totalBytes bytes of all the archive's files
     */
    void progress(long records, long bytesRead, long totalBytes);

    /** The replay is over (called once, whether it passed or not). */
    default void finished(ReplayReport report) {
    }
}
