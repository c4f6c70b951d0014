package io.signalman.fsm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.PackBase;
import io.signalman.engine.PackFiles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.Invariant;
import io.signalman.engine.PackShape;
import io.signalman.engine.ParsedRule;
import io.signalman.engine.ReferenceData;
import io.signalman.engine.Refused;
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.json.Payload;
import java.util.List;
import java.util.Map;
import io.signalman.rulelang.Vocabulary;

/**
 * The FSM pack: guarded execution strategies. Transition rules live in
 * {@code rules/fsm/<machine>.drl}; a machine's strategy-tier signal routes live beside it in
 * {@code <machine>.routes.drl} and belong to the signals pack.
 */
public final class FsmPack extends PackBase<FsmStep, FsmOutcome> {

    public static final String NAME = "fsm";
    static final String ROUTES_SUFFIX = ".routes.drl";

    /** What the pack's rules may name: its facts, and {@code decide} as {@link Transit}. */
    public FsmPack() {
        super(PackShape.of(NAME, "transition", FsmTier.class),
                Vocabulary.of(Transit.class, Instance.class, Action.class), Transit::new);
    }

    @Override
    public boolean includes(String path) {
        return path.startsWith("fsm/") && !path.endsWith(ROUTES_SUFFIX);
    }

    @Override
    public ReferenceData loadReference(PackFiles files) throws BundleException {
        byte[] bytes = files.get(MachineFile.FILE);
        if (bytes == null) {
            throw new BundleException(new BundleError(MachineFile.FILE, 0, 0, "the fsm pack needs " + MachineFile.FILE
                    + ": {\"machines\": [{\"name\": \"...\", \"initial\": \"...\", \"states\": [...]}]}"));
        }
        return new ReferenceData(new Machines(MachineFile.read(bytes), List.of()), List.of());
    }

    /** Reads the transition table out of the rules; an undeclared machine or state refuses the bundle. */
    @Override
    public ReferenceData analyze(List<ParsedRule> rules, ReferenceData reference) throws BundleException {
        Machines declared = reference.as(Machines.class);
        Map<String, Machine> byName = new java.util.LinkedHashMap<>();
        declared.all().forEach(m -> byName.put(m.name(), m));
        TransitionReader reader = new TransitionReader(byName);
        rules.forEach(reader::read);
        if (!reader.errors().isEmpty()) {
            throw new BundleException(reader.errors());
        }
        return new ReferenceData(new Machines(byName, reader.transitions()), List.of());
    }

    /** Only rules for the same machine, state and action are tried against each other. */
    @Override
    public boolean mayCompete(ParsedRule a, ParsedRule b) {
        String ka = TransitionReader.key(a);
        String kb = TransitionReader.key(b);
        return ka == null || kb == null || ka.equals(kb);
    }

    @Override
    public java.util.Set<String> alwaysPresent() {
        return java.util.Set.of("Instance", "Action");
    }

    /** A canary buckets by the instance: one instance, one arm, for its whole life. */
    @Override
    public String trialKey(FsmStep step, FsmOutcome live) {
        return step.instance() == null ? "" : step.instance();
    }

    /** Decides what an action does to an instance in a given state. Pure; blocking. */
    @Override
    public Decision<FsmOutcome> decide(RuleBundle bundle, FsmStep step, boolean explain) {
        CompiledPack pack = bundle.requirePack(NAME);
        Machines machines = pack.reference().as(Machines.class);
        FsmInstance s = step.stateBefore();
        if (machines.machine(s.machine()).isEmpty()) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "unknown_machine", "instance " + step.instance()
                    + " runs machine \"" + s.machine() + "\", which the rules " + bundle.revision() + " do not define");
        }
        Evaluation<String> ev = pack.evaluate(List.of(new Instance(step.instance(), s.machine(), s.currentState()),
                new Action(step.action(), new Payload(step.payload()))), explain, (Transit t) -> t.target());
        FsmOutcome outcome;
        if (ev.outcome() != null) {
            outcome = new FsmOutcome.Moved(s.machine(), s.currentState(), ev.outcome());
        } else {
            List<Transition> tried = machines.candidates(s.machine(), s.currentState(), step.action());
            outcome = tried.isEmpty()
                    ? new FsmOutcome.InvalidTransition(s.currentState(), step.action(),
                            machines.validActions(s.machine(), s.currentState()))
                    : new FsmOutcome.GuardRejected(s.currentState(), step.action(), tried.stream().map(t -> t.rule().name()).toList());
        }
        return decision(bundle, outcome, ev);
    }

    /** {@code {"id", "action", "payload", "state_before"}}: a step as {@code signalman explain} takes it. */
    @Override
    public FsmStep parseInput(JsonNode json) throws InputException {
        JsonNode state = json.path("state_before");
        ObjectNode rest = json.isObject() ? ((ObjectNode) json).deepCopy() : Json.object();
        rest.remove("state_before");
        return parseRecord(rest, state.isMissingNode() ? null : state);
    }

    @Override
    public FsmStep parseRecord(JsonNode input, JsonNode stateBefore) throws InputException {
        ActionRequest r = ActionRequest.parse(input, true);
        try {
            return new FsmStep(r.id(), r.action(), r.payload(), FsmInstance.fromSnapshot(stateBefore));
        } catch (InputException e) {
            throw e.within("state_before");
        }
    }

    @Override
    public JsonNode inputJson(FsmStep step) {
        return new ActionRequest(step.instance(), step.action(), step.payload()).toJson();
    }

    @Override
    public JsonNode stateBefore(FsmStep step) {
        return step.stateBefore().snapshot();
    }

    @Override
    public ObjectNode outcomeJson(FsmOutcome outcome) {
        ObjectNode n = Json.object();
        if (outcome instanceof FsmOutcome.Moved m) {
            n.put("machine", m.machine()).put("from", m.from()).put("to", m.to());
        } else if (outcome instanceof FsmOutcome.InvalidTransition i) {
            n.put("error", "invalid_transition").put("current_state", i.currentState()).put("action", i.action());
            i.validActions().forEach(n.putArray("valid_actions")::add);
        } else if (outcome instanceof FsmOutcome.GuardRejected g) {
            n.put("error", "guard_rejected").put("current_state", g.currentState()).put("action", g.action());
            g.guards().forEach(n.putArray("guards")::add);
        }
        return n;
    }

    @Override
    public List<Invariant<FsmStep, FsmOutcome>> invariants() {
        return FsmInvariants.ALL;
    }
}
