package io.signalman.signals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.PackBase;
import io.signalman.engine.PackFiles;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.Invariant;
import io.signalman.engine.PackShape;
import io.signalman.engine.ReferenceData;
import io.signalman.engine.RuleBundle;
import io.signalman.fsm.FsmInstance;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.json.Payload;
import java.util.ArrayList;
import java.util.List;
import io.signalman.rulelang.Vocabulary;

/**
 * Three-tier signal routing. Each tier is an agenda-group focused in tier
 * order, and all three share one activation group: the first tier with a matching route decides,
 * whatever the saliences; salience orders routes within a tier. Agent and plugin routes live in
 * {@code rules/signals/}; strategy routes beside their FSM machine, {@code rules/fsm/*.routes.drl}.
 */
public final class SignalsPack extends PackBase<SignalStep, SignalDecision> {

    public static final String NAME = "signals";

    /** What the pack's rules may name: its facts, and {@code decide} as {@link RouteAction}. */
    public SignalsPack() {
        super(PackShape.of(NAME, "signal-route", SignalTier.class),
                Vocabulary.of(RouteAction.class, Signal.class, AgentFsm.class), RouteAction::new);
    }

    @Override
    public boolean includes(String path) {
        return path.startsWith("signals/") || path.startsWith("fsm/") && path.endsWith(".routes.drl");
    }

    @Override
    public ReferenceData loadReference(PackFiles files) {
        return ReferenceData.NONE;
    }

    @Override
    public java.util.Set<String> alwaysPresent() {
        return java.util.Set.of("Signal");
    }

    /** A canary buckets by the agent the signal is for: one agent, one arm. */
    @Override
    public String trialKey(SignalStep step, SignalDecision live) {
        return step.agent() == null ? "" : step.agent();
    }

    /** Routes one signal, given the agent's FSM state. Pure; blocking. */
    @Override
    public Decision<SignalDecision> decide(RuleBundle bundle, SignalStep step, boolean explain) {
        CompiledPack pack = bundle.requirePack(NAME);
        List<Object> facts = new ArrayList<>(2);
        facts.add(new Signal(step.agent(), step.kind(), new Payload(step.payload())));
        if (step.fsm() != null) {
            facts.add(new AgentFsm(step.agent(), step.fsm().machine(), step.fsm().currentState()));
        }
        Evaluation<RouteAction.Chosen> ev = pack.evaluate(facts, explain, RouteAction::chosen);
        SignalDecision d = ev.decidedBy() == null || ev.outcome() == null ? SignalDecision.UNROUTED
                : new SignalDecision(ev.outcome(), SignalTier.of(ev.decidedBy().agendaGroup()), false);
        return decision(bundle, d, ev);
    }

    /** A request with its recorded FSM state: {@code {"agent", "signal", "state_before"}} (for explain). */
    @Override
    public SignalStep parseInput(JsonNode json) throws InputException {
        ObjectNode rest = json.isObject() ? ((ObjectNode) json).deepCopy() : Json.object();
        JsonNode state = rest.remove("state_before");
        return parseRecord(rest, state);
    }

    @Override
    public SignalStep parseRecord(JsonNode input, JsonNode stateBefore) throws InputException {
        SignalRequest r = SignalRequest.parse(input);
        JsonNode fsm = stateBefore == null ? null : stateBefore.get("fsm");
        try {
            return new SignalStep(r.agent(), r.signal().kind(), r.signal().payload(),
                    fsm == null || fsm.isNull() ? null : FsmInstance.fromSnapshot(fsm));
        } catch (InputException e) {
            throw e.within("state_before.fsm");
        }
    }

    @Override
    public JsonNode inputJson(SignalStep step) {
        return SignalRequest.toJson(step);
    }

    @Override
    public JsonNode stateBefore(SignalStep step) {
        ObjectNode n = Json.object();
        n.set("fsm", step.fsm() == null ? Json.MAPPER.nullNode() : step.fsm().snapshot());
        return n;
    }

    @Override
    public ObjectNode outcomeJson(SignalDecision d) {
        ObjectNode n = Json.object();
        if (d.unrouted()) {
            n.putNull("action");
        } else {
            ObjectNode a = n.putObject("action");
            a.put("type", d.action().type());
            if (d.action().value() != null) {
                a.put("value", d.action().value());
            }
        }
        n.put("tier", d.tier() == null ? null : d.tier().agendaGroup());
        n.put("unrouted", d.unrouted());
        return n;
    }

    @Override
    public List<Invariant<SignalStep, SignalDecision>> invariants() {
        return SignalsInvariants.ALL;
    }
}
