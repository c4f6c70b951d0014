package io.signalman.engine.tables;

/**
 * A decision table that cannot be read into DRL, at the row where reading stopped. Its own type,
 * rather than the engine's bundle error, so that tables depend on nothing above them: the engine
 * reads tables and turns this into a bundle error at the same file and row.
 */
public final class UnreadableTable extends Exception {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final int row;

    UnreadableTable(String path, int row, String message) {
        super(message);
        this.path = path;
        this.row = row;
    }

    /** The table's path in the bundle. */
    public String path() {
        return path;
    }

    /** The 1-based row the problem is on. */
    public int row() {
        return row;
    }
}
