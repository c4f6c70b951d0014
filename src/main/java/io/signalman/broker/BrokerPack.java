package io.signalman.broker;

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
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import io.signalman.rulelang.Vocabulary;

/**
 * The broker pack: org-aware message routing. Its one typed entry point is
 * {@link #decide(RuleBundle, BrokerMessage, boolean)}.
 */
public final class BrokerPack extends PackBase<BrokerMessage, RouteDecision> {

    public static final String NAME = "broker";
    public static final Set<String> PRIORITIES = Set.of("low", "normal", "high", "critical");

    /** What the pack's rules may name: its facts, and {@code decide} as {@link Route}. */
    public BrokerPack() {
        super(PackShape.of(NAME, "route", BrokerTier.class),
                Vocabulary.of(Route.class, Message.class, AgentCard.class, OrgChart.class), Route::new);
    }

    @Override
    public ReferenceData loadReference(PackFiles files) throws BundleException {
        byte[] chart = files.get(OrgChart.FILE);
        if (chart == null) {
            throw new BundleException(new BundleError(OrgChart.FILE, 0, 0,
                    "the broker pack needs its org chart; create " + OrgChart.FILE + " with {\"agents\": [...]}"));
        }
        OrgChart org = OrgChart.read(OrgChart.FILE, chart);
        List<Object> facts = new ArrayList<>(org.cards());
        facts.add(org);
        return new ReferenceData(org, facts);
    }

    @Override
    public Set<String> alwaysPresent() {
        return Set.of("Message", "OrgChart");
    }

    /** Every recipient a rule names must have a card in the org chart (a typo routes to nobody). */
    @Override
    public ReferenceData analyze(List<ParsedRule> rules, ReferenceData reference) throws BundleException {
        List<BundleError> errors = RecipientCheck.unknown(rules, reference.as(OrgChart.class));
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return reference;
    }

    /** A canary buckets by the sending agent ({@code envelope.from_agent}): one sender, one arm. */
    @Override
    public String trialKey(BrokerMessage message, RouteDecision live) {
        return message.envelope() == null || message.envelope().fromAgent() == null ? "" : message.envelope().fromAgent();
    }

    /** Routes one message. Blocking: call it from a worker thread. */
    @Override
    public Decision<RouteDecision> decide(RuleBundle bundle, BrokerMessage message, boolean explain) {
        CompiledPack pack = bundle.requirePack(NAME);
        Evaluation<RouteDecision> ev = pack.evaluate(List.of(message.fact()), explain, Route::toDecision);
        return decision(bundle, ev.outcome(), ev);
    }

    @Override
    public BrokerMessage parseInput(JsonNode json) throws InputException {
        BrokerMessage m = Json.bind(Json.requireObject(json,
                "expected a JSON object with envelope, type and subtype"), BrokerMessage.class);
        if (m.envelope() == null) {
            throw new InputException("envelope", "envelope is required: {\"from_agent\": \"...\", \"priority\": \"normal\"}");
        }
        if (m.envelope().fromAgent() == null || m.envelope().fromAgent().isBlank()) {
            throw new InputException("envelope.from_agent", "envelope.from_agent is required and must not be blank");
        }
        String priority = m.envelope().priority() == null ? "normal" : m.envelope().priority();
        if (!PRIORITIES.contains(priority)) {
            throw new InputException("envelope.priority", "envelope.priority must be one of low, normal, high, critical, not \""
                    + priority + "\"");
        }
        if (m.type() == null || m.type().isBlank()) {
            throw new InputException("type", "type is required and must not be blank");
        }
        if (m.subtype() == null) {
            throw new InputException("subtype", "subtype is required");
        }
        return new BrokerMessage(m.id(), new BrokerMessage.Envelope(m.envelope().fromAgent(), priority), m.type(),
                m.subtype(), m.payload());
    }

    @Override
    public JsonNode inputJson(BrokerMessage m) {
        ObjectNode n = Json.object();
        if (m.id() != null) {
            n.put("id", m.id());
        }
        ObjectNode env = n.putObject("envelope");
        env.put("from_agent", m.envelope().fromAgent());
        env.put("priority", m.envelope().priority());
        n.put("type", m.type());
        n.put("subtype", m.subtype());
        if (m.payload() != null) {
            n.set("payload", m.payload());
        }
        return n;
    }

    @Override
    public ObjectNode outcomeJson(RouteDecision d) {
        ObjectNode n = Json.object();
        d.primaryRecipients().forEach(n.putArray("primary_recipients")::add);
        d.fanOut().forEach(n.putArray("fan_out")::add);
        n.put("store_in_memory", d.storeInMemory());
        n.put("priority_override", d.priorityOverride());
        n.put("converted_to_escalation", d.convertedToEscalation());
        return n;
    }

    @Override
    public List<Invariant<BrokerMessage, RouteDecision>> invariants() {
        return BrokerInvariants.ALL;
    }
}
