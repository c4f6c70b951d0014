-- A cluster's state (issue 16): every entry of every Hazelcast state map, written through by
-- io.signalman.cluster.PostgresMapStore. value is the map's own string: {"version": N, "value": {...}}.
CREATE TABLE signalman_state (
    store      TEXT        NOT NULL,
    id         TEXT        NOT NULL,
    value      TEXT        NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (store, id)
);
