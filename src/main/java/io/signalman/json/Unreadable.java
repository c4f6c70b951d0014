package io.signalman.json;

/**
 * A file that cannot be read, at the line and column where reading stopped (column 0 when only
 * the line is known, as for a decision table's row). The caller knows the file and turns this
 * into a bundle error there; the readers that throw it (reference data, decision tables) so
 * depend on nothing above them.
 */
public final class Unreadable extends Exception {

    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public Unreadable(int line, int column, String message) {
        super(message);
        this.line = line;
        this.column = column;
    }

    /** The 1-based line (a table's row) the problem is on; 0 when not known. */
    public int line() {
        return line;
    }

    /** The 1-based column, or 0. */
    public int column() {
        return column;
    }
}
