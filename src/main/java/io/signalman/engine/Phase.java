package io.signalman.engine;

import java.util.Objects;

/**
 * One agenda group of a pack, in the order the platform focuses them.
 *
 * <p>{@link Kind#FIRST_MATCH} phases are the deciding ones: their rules share the pack's
 * activation group, so exactly one of them fires. Several first-match phases in a row are tiers:
 * the first tier with a match decides, whatever the saliences say.
 */
public record Phase(String agendaGroup, Kind kind) {

    public enum Kind {
        /** Derives facts for later phases; never decides. */
        CLASSIFY,
        /** Deciding rules; one activation group spans every such phase of the pack. */
        FIRST_MATCH,
        /** Adds recipients or flags after the decision; never removes or replaces it. */
        ADDITIVE
    }

    public Phase {
        Objects.requireNonNull(agendaGroup, "agendaGroup");
        Objects.requireNonNull(kind, "kind");
    }

    public boolean decides() {
        return kind == Kind.FIRST_MATCH;
    }
}
