package io.signalman.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.Engine;
import io.signalman.engine.Phase;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.util.List;

/** The body of {@code GET /v1/rules}: what is loaded, what was refused, every rule. */
final class RulesView {

    private RulesView() {
    }

    static ObjectNode of(Engine engine) {
        ObjectNode out = Json.object();
        RuleBundle b = engine.current().orElse(null);
        out.put("revision", b == null ? null : b.revision());
        out.put("loaded_at", b == null ? null : b.loadedAt().toString());
        out.set("last_refused", engine.lastRefused().map(r -> {
            ObjectNode n = Json.object();
            n.put("at", r.at().toString());
            n.put("revision", r.revision());
            n.set("errors", errors(r.errors()));
            return (com.fasterxml.jackson.databind.JsonNode) n;
        }).orElse(Json.MAPPER.nullNode()));
        out.set("warnings", b == null ? Json.array() : errors(b.warnings()));
        ArrayNode rules = out.putArray("rules");
        if (b != null) {
            b.packs().values().stream().sorted(java.util.Comparator.comparing(CompiledPack::name))
                    .forEach(p -> p.rules().forEach(r -> rules.add(rule(p, r))));
        }
        return out;
    }

    static ArrayNode errors(List<BundleError> errors) {
        return BundleError.toJson(errors);
    }

    private static ObjectNode rule(CompiledPack pack, RuleInfo r) {
        long tiers = pack.definition().phases().stream().filter(Phase::decides).count();
        ObjectNode n = Json.object();
        n.put("pack", r.pack());
        n.put("name", r.name());
        n.put("file", r.file());
        n.put("line", r.line());
        n.put("salience", r.salience());
        n.put("phase", r.agendaGroup());
        n.put("group", r.activationGroup());
        n.put("tier", tiers > 1 && r.decides() ? r.agendaGroup() : null);
        n.put("reason", r.reason());
        n.put("fired", pack.timesFired(r));
        n.put("fired_in_gate", pack.timesFiredInGate(r));
        return n;
    }
}
