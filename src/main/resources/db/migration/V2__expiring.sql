-- Entries that carry their own expiry (issue 16): a cluster's idempotency answers (store
-- 'idempotency') and tombstones of expired state (store 'expired.<state store>'), written through
-- by io.signalman.cluster.PostgresEntryStore. value is the Hazelcast map's value as bytes;
-- expires_at is when Hazelcast drops the entry (null: never). A load skips rows past it; members
-- delete them in the background, which the index on expires_at keeps cheap.
CREATE TABLE signalman_expiring (
    store      TEXT        NOT NULL,
    id         TEXT        NOT NULL,
    value      BYTEA       NOT NULL,
    expires_at TIMESTAMPTZ,
    PRIMARY KEY (store, id)
);

CREATE INDEX signalman_expiring_expires_at ON signalman_expiring (expires_at);
