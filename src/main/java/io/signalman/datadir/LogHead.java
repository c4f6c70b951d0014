package io.signalman.datadir;

/**
 * What the manifest records of a chained, append-only log (the audit log) each time an entry is
 * written: how many entries it holds and the newest one's chain value, so that a log cut short,
 * deleted or rewritten is named at start and by {@code signalman data verify}. A keyed log's
 * record names its key ({@code key}: the key's id, never the key) and carries {@code mac}, the
 * record's own HMAC, so that it cannot be rewritten to match a shortened log without the key.
 *
 * @param entries how many entries the log held
 * @param head    the newest entry's chain value, or null for none
 * @param key     the id of the key the log is keyed with, or null when it is not keyed
 * @param mac     the record's HMAC under that key, or null when it is not keyed
 */
public record LogHead(long entries, String head, String key, String mac) {

    public boolean keyed() {
        return key != null;
    }
}
