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

    /**
     * The same compiled rules over other reference data: each pack with a replaced file reloads
     * its reference data (no recompilation). Used to replay archives recorded under other data.
     */
    public RuleBundle withReference(Map<String, byte[]> replacements) throws BundleException {
        if (replacements.isEmpty()) {
            return this;
        }
        BundleFiles overlaid = files.overlay(replacements);
        Map<String, CompiledPack> out = new java.util.LinkedHashMap<>(packs);
        for (CompiledPack p : packs.values()) {
            if (replacements.keySet().stream().anyMatch(k -> p.definition().includes(k))) {
                Map<String, byte[]> own = new java.util.LinkedHashMap<>();
                overlaid.paths().stream().filter(k -> p.definition().includes(k) && !BundleFiles.isScenario(k))
                        .forEach(k -> own.put(k, overlaid.bytes(k)));
                out.put(p.name(), p.withReference(p.definition().loadReference(PackFiles.of(own))));
            }
        }
        return new RuleBundle(overlaid.revision(), loadedAt, overlaid, out, warnings);
    }

    /** The same bundle, its packs counting their firings apart ({@link CompiledPack#apart}). */
    public RuleBundle apart() {
        Map<String, CompiledPack> out = new java.util.LinkedHashMap<>();
        packs.forEach((name, p) -> out.put(name, p.apart()));
        return new RuleBundle(revision, loadedAt, files, out, warnings);
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
