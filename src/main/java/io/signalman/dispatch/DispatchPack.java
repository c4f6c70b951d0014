package io.signalman.dispatch;

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
import io.signalman.engine.ReferenceData;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import java.util.ArrayList;
import java.util.List;
import io.signalman.rulelang.Vocabulary;

/**
 * The dispatch pack: inbound agent dispatch, session policy and model routing (seed 004,
 * seed 004). Its one typed entry point is {@link #decide(RuleBundle, InboundMessage, boolean)}.
 *
 * <p>The platform normalizes the message into an {@link Inbound} view and extracts its
 * {@link Features}; the {@code dispatch} rules (first match) choose the agent, the {@code score}
 * rules (additive) weigh the features; the platform then resolves the agent, the session and the
 * model.
 */
public final class DispatchPack extends PackBase<InboundMessage, DispatchDecision> {

    public static final String NAME = "dispatch";

    /** Reads agents.json and config.json, and the rules' short names and lint findings from the DRL. */
    /** What the pack's rules may name: its facts, and {@code decide} as {@link Dispatch}. */
    public DispatchPack() {
        super(PackShape.of(NAME, "dispatch", DispatchTier.class),
                Vocabulary.of(Dispatch.class, Inbound.class, Features.class), Dispatch::new);
    }

    @Override
    public ReferenceData loadReference(PackFiles files) throws BundleException {
        List<BundleError> errors = new ArrayList<>();
        AgentRoster agents = AgentRoster.EMPTY;
        DispatchConfig config = null;
        try {
            byte[] roster = files.get(AgentRoster.FILE);
            agents = roster == null ? AgentRoster.EMPTY : AgentRoster.read(AgentRoster.FILE, roster);
        } catch (BundleException e) {
            errors.addAll(e.errors());
        }
        byte[] configBytes = files.get(DispatchConfig.FILE);
        if (configBytes == null) {
            errors.add(new BundleError(DispatchConfig.FILE, 0, 0, "the dispatch pack needs its config; create "
                    + DispatchConfig.FILE + " with {\"session\": {...}, \"routing\": {\"heavy_model\": \"...\"}}"));
        } else {
            try {
                config = DispatchConfig.read(DispatchConfig.FILE, configBytes);
            } catch (BundleException e) {
                errors.addAll(e.errors());
            }
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        // Reference facts are inserted into every session; the rules need none, they see the view.
        return new ReferenceData(new DispatchReference(agents, config, DispatchRuleIndex.of(files, agents)), List.of());
    }

    /** Unconstrained dispatch rules, repeated short names, literals that can never match. */
    @Override
    public List<BundleError> lint(List<RuleInfo> rules, ReferenceData reference) {
        return reference.as(DispatchReference.class).rules().findings();
    }

    /** Agents agents.json does not list: legal (the default agent takes the message), but rarely meant. */
    @Override
    public List<BundleError> lintWarnings(List<RuleInfo> rules, ReferenceData reference) {
        return reference.as(DispatchReference.class).rules().warnings();
    }

    /**
     * A canary buckets by the session key the live rules give the message: one session, one arm.
     * The key is itself decided (the agent is part of it), so it is the live rules' key.
     */
    @Override
    public String trialKey(InboundMessage message, DispatchDecision live) {
        return live.sessionKey();
    }

    /** Dispatches one inbound message. Blocking: call it from a worker thread. */
    @Override
    public Decision<DispatchDecision> decide(RuleBundle bundle, InboundMessage message, boolean explain) {
        CompiledPack pack = bundle.requirePack(NAME);
        DispatchReference ref = pack.reference().as(DispatchReference.class);
        Inbound view = new Normalizer(ref.config().identityLinks()).view(message);
        Features features = FeatureExtractor.extract(message.text(), message.history());
        Evaluation<Dispatch.Result> ev = pack.evaluate(List.of(view, features), explain, Dispatch::result);
        DispatchDecision d = Resolver.resolve(ref, view, features, ev.outcome(), ev.decidedBy());
        return decision(bundle, d, ev);
    }

    @Override
    public InboundMessage parseInput(JsonNode json) throws InputException {
        return DispatchJson.parse(json);
    }

    @Override
    public JsonNode inputJson(InboundMessage message) {
        return DispatchJson.input(message);
    }

    @Override
    public ObjectNode outcomeJson(DispatchDecision decision) {
        return DispatchJson.outcome(decision);
    }

    @Override
    public List<Invariant<InboundMessage, DispatchDecision>> invariants() {
        return DispatchInvariants.ALL;
    }
}
