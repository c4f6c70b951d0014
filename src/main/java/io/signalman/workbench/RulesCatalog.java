package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * "Rules, as they run": every pack, its files, and each rule in firing order (phase, then
 * salience, then load order) with its reason, place, group, how often and when it last fired,
 * whether the golden history ever fires it, and the lint warnings about it.
 */
final class RulesCatalog {

    private RulesCatalog() {
    }

    /** Firing order within a pack: the phase first, the highest salience first, then load order. */
    static final Comparator<RuleInfo> FIRING_ORDER = Comparator.comparingInt(RuleInfo::phaseIndex)
            .thenComparing(Comparator.comparingInt(RuleInfo::salience).reversed())
            .thenComparingInt(RuleInfo::index);

    /**
     * @param neverFired rules of each pack the golden history never fires (from a replay)
     */
    static ObjectNode of(RuleBundle b, Map<String, List<String>> neverFired, LastFired last) {
        ObjectNode out = Json.object();
        out.put("revision", b.revision());
        out.put("loaded_at", b.loadedAt().toString());
        out.set("warnings", Checks.errors(b.warnings()));
        ArrayNode packs = out.putArray("packs");
        b.packs().values().stream().sorted(Comparator.comparing(CompiledPack::name)).forEach(p -> {
            ObjectNode pn = packs.addObject();
            pn.put("name", p.name());
            ArrayNode files = pn.putArray("files");
            b.files().paths().stream().filter(p.definition()::includes).forEach(files::add);
            Set<String> never = Set.copyOf(neverFired.getOrDefault(p.name(), List.of()));
            ArrayNode rules = pn.putArray("rules");
            p.rules().stream().sorted(FIRING_ORDER).forEach(r -> rules.add(rule(p, r, never, last,
                    b.warnings().stream().filter(w -> owner(p.rules(), w) == r).toList())));
        });
        return out;
    }

    private static ObjectNode rule(CompiledPack pack, RuleInfo r, Set<String> never, LastFired last,
                                   List<BundleError> warnings) {
        ObjectNode n = Json.object();
        n.put("name", r.name());
        n.put("file", r.file());
        n.put("line", r.line());
        n.put("phase", r.agendaGroup());
        n.put("salience", r.salience());
        n.put("group", r.activationGroup());
        n.put("kind", r.decides() ? "first-match" : "additive");
        n.put("reason", r.reason());
        n.put("fired", pack.timesFired(r));
        n.put("last_fired", last.of(pack.name(), r.name()));
        n.put("never_fired_in_golden_history", never.contains(r.name()));
        n.set("warnings", Checks.errors(warnings));
        return n;
    }

    /**
     * The rule a warning is about: the one it points into (the last rule of its file starting at
     * or before its line), else the first rule its message names; null when it names none.
     */
    static RuleInfo owner(List<RuleInfo> rules, BundleError w) {
        RuleInfo at = null;
        for (RuleInfo r : rules) {
            if (r.file().equals(w.file()) && r.line() <= w.line() && (at == null || r.line() > at.line())) {
                at = r;
            }
        }
        if (at != null) {
            return at;
        }
        return rules.stream().filter(r -> w.message().contains("\"" + r.name() + "\"")).findFirst().orElse(null);
    }
}
