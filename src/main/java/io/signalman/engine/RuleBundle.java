package io.signalman.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A compiled, validated rule bundle: immutable, swapped as a whole. */
public record RuleBundle(String revision, Instant loadedAt, BundleFiles files, Map<String, CompiledPack> packs,
                         List<BundleError> warnings) {

    public RuleBundle {
        packs = Map.copyOf(packs);
        warnings = List.copyOf(warnings);
    }

    public Optional<CompiledPack> pack(String name) {
        return Optional.ofNullable(packs.get(name));
    }

    /** The pack, or an error naming the packs this bundle does have. */
    public CompiledPack requirePack(String name) {
        CompiledPack p = packs.get(name);
        if (p == null) {
            throw new IllegalStateException("the rule bundle " + revision + " has no pack \"" + name
                    + "\" (it has " + packs.keySet() + ")");
        }
        return p;
    }
}
