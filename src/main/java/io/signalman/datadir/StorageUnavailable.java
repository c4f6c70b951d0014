package io.signalman.datadir;

/**
 * The data directory cannot take a write (a full disk, a failing device): a change that cannot be
 * written is not made, and its client gets 503 {@code storage_unavailable} with
 * {@code Retry-After}. {@link Storage} notices when writes work again, by itself.
 */
public final class StorageUnavailable extends RuntimeException {

    public StorageUnavailable(String message) {
        super(message, null, false, false);
    }
}
