package io.signalman.datadir;

/**
 * A data directory a server must not start on as it is: in use by another process, missing or
 * foreign pieces, a corrupt record in the middle of a file. The message names the file (and the
 * byte offset, for a record) and says what the operator can do.
 */
public final class DataDirRefused extends RuntimeException {

    public DataDirRefused(String message) {
        super(message, null, false, false);
    }
}
