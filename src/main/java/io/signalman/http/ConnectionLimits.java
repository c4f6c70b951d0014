package io.signalman.http;

/**
 * What bounds a client's connection, so that idle, slow and numerous connections
 * cannot exhaust the server's file descriptors or hold it forever.
 *
 * @param idleTimeoutS    a connection without a request in progress (just opened, or done with its
 *                        previous response) is closed when no request's headers have arrived for
 *                        this many seconds; trickled headers do not count as a request
 * @param requestTimeoutS once a request's headers have arrived, its whole body must arrive within
 *                        this many seconds, else 408 {@code request_timeout} and the connection is closed
 * @param maxConnections  open connections on the public listener; past it a new connection is
 *                        closed at once (the connections already open keep being served)
 */
public record ConnectionLimits(int idleTimeoutS, int requestTimeoutS, int maxConnections) {

    /** Below the open-file limit, room is kept for the decision log, the rules watcher and the JVM's own files. */
    static final int FILE_HEADROOM = 512;

    public ConnectionLimits {
        if (idleTimeoutS <= 0 || requestTimeoutS <= 0 || maxConnections <= 0) {
            throw new IllegalArgumentException("--idle-timeout, --request-timeout and --max-connections must be positive");
        }
    }

    /**
     * 60 s idle, 30 s to receive a request's body, and 10,000 connections or the process's
     * open-file limit less {@link #FILE_HEADROOM}, whichever is lower: past the file limit every
     * accept fails and even {@code /health} stops answering.
     */
    public static ConnectionLimits defaults() {
        return new ConnectionLimits(60, 30, defaultMaxConnections());
    }

    static int defaultMaxConnections() {
        long files = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : Long.MAX_VALUE;
        return (int) Math.max(64, Math.min(10_000, files - FILE_HEADROOM));
    }

    @Override
    public String toString() {
        return "idle-timeout=" + idleTimeoutS + "s request-timeout=" + requestTimeoutS + "s max-connections=" + maxConnections;
    }
}
