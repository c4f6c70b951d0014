package io.signalman.handoff;

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
import io.signalman.json.Json;
import java.util.List;
import io.signalman.rulelang.Vocabulary;

/**
 * The handoff pack: signal-based multi-agent handoff. The rules say what a
 * turn means (rerun, a termination or routing signal, pause, end, default handoff), tier by tier;
 * {@link Handoffs} applies it to the conversation's state and {@code max_handoffs}.
 */
public final class HandoffPack extends PackBase<TurnInput, HandoffOutcome> {

    public static final String NAME = "handoff";

    /**
     * One activation group ("handoff") across the four tiers: termination beats routing whatever the saliences say.
     * What the pack's rules may name: its facts, and {@code decide} as {@link Step}.
     */
    public HandoffPack() {
        super(PackShape.of(NAME, "handoff", HandoffTier.class),
                Vocabulary.of(Step.class, Turn.class, Said.class), Step::new);
    }

    @Override
    public ReferenceData loadReference(PackFiles files) throws BundleException {
        return new ReferenceData(HandoffReference.load(files), List.of());
    }

    @Override
    public List<BundleError> lint(List<RuleInfo> rules, ReferenceData reference) {
        return reference.value() == null ? List.of() : reference.as(HandoffReference.class).crossCheck();
    }

    /** A canary buckets by the conversation: one conversation, one arm, for its whole life. */
    @Override
    public String trialKey(TurnInput in, HandoffOutcome live) {
        return in.conversationId() == null ? "" : in.conversationId();
    }

    /** Decides one turn from the state it found. Blocking: call it from a worker thread. */
    @Override
    public Decision<HandoffOutcome> decide(RuleBundle bundle, TurnInput in, boolean explain) {
        CompiledPack pack = bundle.requirePack(NAME);
        HandoffReference ref = pack.reference().as(HandoffReference.class);
        ConversationState s = in.state();
        if (s == null) {
            throw new IllegalArgumentException("a turn is decided from its conversation's state");
        }
        Crew crew = ref.crew(s.crew()).orElseThrow(() -> ConversationRefused.of(ConversationRefused.Reason.CREW_GONE,
                "crew \"" + s.crew() + "\" is no longer in the rules " + bundle.revision(), s));
        Crew.Agent agent = crew.agent(in.agent()).orElse(null);
        Turn turn = new Turn(crew.name(), in.agent(), in.response(), in.toolCalls(),
                agent != null && agent.waitForSignal(), agent != null && agent.isTerminal());
        Evaluation<Step.Ruling> ev = pack.evaluate(List.of(turn), explain, Step::read);
        Step.Ruling ruling = ev.outcome();
        Handoffs.Result r = Handoffs.apply(crew, s, in.agent(), ruling);
        Said said = ruling.said();
        HandoffOutcome out = new HandoffOutcome(r.next(), said == null ? null : said.signal(),
                said == null ? null : said.level(), r.state().handoffCount(), crew.maxHandoffs(), r.state(),
                ref.terminationSignals(crew.name(), in.agent()));
        return decision(bundle, out, ev);
    }

    /** The turn body ({@code agent}, {@code response}, {@code tool_calls}), optionally with its state. */
    @Override
    public TurnInput parseInput(JsonNode json) throws InputException {
        return parseTurn(json, null);
    }

    @Override
    public TurnInput parseRecord(JsonNode input, JsonNode stateBefore) throws InputException {
        TurnInput t = parseTurn(input, null);
        return t.withState(ConversationState.fromJson(stateBefore));
    }

    /** Reads a turn; {@code conversationId} comes from the path when it is not in the body. */
    public TurnInput parseTurn(JsonNode json, String conversationId) throws InputException {
        TurnBody b = Json.bind(Json.requireObject(json,
                "expected a JSON object {\"agent\", \"response\", \"tool_calls\"}"), TurnBody.class);
        if (b.agent() == null || b.agent().isBlank()) {
            throw new InputException("agent", "agent is required: the agent whose turn this was");
        }
        if (b.response() == null) {
            throw new InputException("response", "response is required (the agent's text; \"\" when it said nothing)");
        }
        int tools = b.toolCalls() == null ? 0 : b.toolCalls();
        if (tools < 0) {
            throw new InputException("tool_calls", "tool_calls is a count of tool calls and cannot be negative");
        }
        String id = b.conversationId() != null ? b.conversationId() : conversationId;
        ConversationState state = b.stateBefore() == null ? null : ConversationState.fromJson(b.stateBefore());
        return new TurnInput(id, b.agent(), b.response(), tools, state);
    }

    /** The wire form of a turn; {@code state_before} only where no conversation holds it (CLI explain). */
    record TurnBody(String conversationId, String agent, String response, Integer toolCalls, JsonNode stateBefore) {
    }

    @Override
    public JsonNode inputJson(TurnInput t) {
        ObjectNode n = Json.object();
        if (t.conversationId() != null) {
            n.put("conversation_id", t.conversationId());
        }
        n.put("agent", t.agent());
        n.put("response", t.response());
        n.put("tool_calls", t.toolCalls());
        return n;
    }

    @Override
    public JsonNode stateBefore(TurnInput input) {
        return input.state() == null ? null : input.state().toJson();
    }

    @Override
    public ObjectNode outcomeJson(HandoffOutcome o) {
        ObjectNode n = Json.object();
        n.set("next", o.next().toJson());
        n.put("signal", o.signal());
        n.put("match_level", o.matchLevel() == null ? null : o.matchLevel().wire());
        n.put("handoff_count", o.handoffCount());
        n.put("max_handoffs", o.maxHandoffs());
        return n;
    }

    @Override
    public List<Invariant<TurnInput, HandoffOutcome>> invariants() {
        return HandoffInvariants.ALL;
    }
}
