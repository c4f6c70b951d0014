package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Engine;
import io.signalman.engine.Refused;
import io.signalman.engine.RuleBundle;
import io.signalman.json.InputException;
import io.signalman.state.StateStore;
import io.signalman.json.Json;
import io.signalman.state.StateStores;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every transport does with a decision request: parse, decide with the pack's one
 * {@code decide}, log, render. HTTP and the event bus both call it, on a worker thread.
 */
public final class Decisions {

    private final Engine engine;
    private final DecisionLog log;
    /**
     * One line per decision, at DEBUG: a decision is also a record in the decision log, so at INFO
     * these lines would only double the I/O under load. Enable with
     * {@code -Dorg.slf4j.simpleLogger.log.io.signalman.decisions=debug}.
     */
    private static final Logger DECISION_LOG = LoggerFactory.getLogger("io.signalman.decisions");

    private final StateStores stores;
    private final Metrics metrics;

    public Decisions(Engine engine, DecisionLog log, StateStores stores) {
        this(engine, log, stores, new Metrics(engine));
    }

    public Decisions(Engine engine, DecisionLog log, StateStores stores, Metrics metrics) {
        this.engine = engine;
        this.log = log;
        this.stores = stores;
        this.metrics = metrics;
    }

    public Metrics metrics() {
        return metrics;
    }

    /** The server's state stores (FSM instances, conversations); they outlive rule reloads. */
    public StateStores stores() {
        return stores;
    }

    public Engine engine() {
        return engine;
    }

    /** The state store of a stateful pack, by the pack's name (SPEC 3.5). */
    public <V> StateStore<V> state(String pack) {
        return stores.named(pack);
    }

    /** Decides one request body. Runs on a worker thread. */
    public <I, D> byte[] decide(DecisionPack<I, D> pack, String endpoint, byte[] body, boolean explain) throws InputException {
        return decide(pack, endpoint, body, explain, null);
    }

    /**
     * Decides one request body; with {@code whyNot}, the answer also carries {@code why_not}: that
     * rule's every constraint against this input. Runs on a worker thread.
     */
    public <I, D> byte[] decide(DecisionPack<I, D> pack, String endpoint, byte[] body, boolean explain, String whyNot)
            throws InputException {
        I input = pack.parseInput(Json.parse(body));
        RuleBundle bundle = engine.bundle();
        requireRule(bundle, pack, whyNot);
        return Json.bytes(decideParsed(pack, endpoint, bundle, input, explain, whyNot));
    }

    /**
     * Refuses (422 {@code unknown_rule}) a {@code why_not} that names no rule of the pack, before
     * anything is decided or logged.
     */
    public void requireRule(DecisionPack<?, ?> pack, String rule) {
        requireRule(engine.bundle(), pack, rule);
    }

    private static void requireRule(RuleBundle bundle, DecisionPack<?, ?> pack, String rule) {
        if (rule == null) {
            return;
        }
        List<String> names = bundle.requirePack(pack.name()).rules().stream().map(io.signalman.engine.RuleInfo::name).toList();
        if (!names.contains(rule)) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "unknown_rule", "why_not names no rule of pack " + pack.name()
                    + ": \"" + rule + "\"; its rules: " + names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(", ")));
        }
    }

    /** Adds {@code why_not} for {@code rule} to a response (nothing when no rule was asked about). */
    public static ObjectNode withWhyNot(ObjectNode out, Decision<?> d, String rule) {
        if (rule != null) {
            ObjectNode answer = d.whyNotJson(rule);
            if (answer != null) {
                out.set("why_not", answer);
            }
        }
        return out;
    }

    /**
     * Decides a batch: a JSON array, or JSONL (one object per line). Every item is validated
     * before any is decided, so a bad item refuses the whole batch, naming it ({@code [3].subtype}).
     * The whole batch is decided against one bundle.
     */
    public <I, D> byte[] decideBatch(DecisionPack<I, D> pack, String endpoint, byte[] body, boolean explain)
            throws InputException {
        return decideBatch(pack, endpoint, body, explain, null);
    }

    /** A batch where every item's answer carries {@code why_not} for the same rule. */
    public <I, D> byte[] decideBatch(DecisionPack<I, D> pack, String endpoint, byte[] body, boolean explain, String whyNot)
            throws InputException {
        List<I> inputs = new ArrayList<>();
        List<JsonNode> items = items(body);
        for (int i = 0; i < items.size(); i++) {
            try {
                inputs.add(pack.parseInput(items.get(i)));
            } catch (InputException e) {
                throw e.within("[" + i + "]");
            }
        }
        RuleBundle bundle = engine.bundle();
        requireRule(bundle, pack, whyNot);
        ArrayNode out = Json.array();
        for (I input : inputs) {
            out.add(decideParsed(pack, endpoint, bundle, input, explain, whyNot));
        }
        return Json.bytes(out);
    }

    /**
     * Evaluates without logging: a stateful pack evaluates, then compare-and-sets its state, and
     * only a decision whose state change won is committed. Runs on a worker thread.
     */
    public <I, D> Decision<D> evaluate(DecisionPack<I, D> pack, I input, boolean explain) {
        return pack.decide(engine.bundle(), input, explain);
    }

    /** Logs a decision (with the state it was made from) and returns its response body. */
    public <I, D> ObjectNode commit(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d) {
        return commit(pack, endpoint, input, d, null).body();
    }

    /** A logged decision: its response body and its position in the decision log. */
    public record Committed(ObjectNode body, long position) {
    }

    /**
     * Logs a decision that changed state, with {@code stateAfter} (a {@code StateLine}: the
     * decision log is the write-ahead log of durable state). Called while the state store holds
     * the change; the caller answers only after {@link #awaitDurable} of the returned position.
     */
    public <I, D> Committed commit(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d, JsonNode stateAfter) {
        ObjectNode outcome = pack.outcomeJson(d.outcome());
        long position = log.append(new DecisionRecord(d.decisionId(), Instant.now().toString(), pack.name(), endpoint,
                d.revision(), pack.inputJson(input), d.recordJson(outcome), pack.stateBefore(input), stateAfter));
        metrics.decided(d);
        if (DECISION_LOG.isDebugEnabled()) {
            DECISION_LOG.debug(LogLine.decision(d, endpoint));
        }
        return new Committed(d.toJson(outcome), position);
    }

    /** Waits until a logged state change is as durable as {@code --fsync} promises (SPEC 3.5). */
    public void awaitDurable(long position) {
        log.awaitDurable(position);
    }

    private <I, D> ObjectNode decideParsed(DecisionPack<I, D> pack, String endpoint, RuleBundle bundle, I input,
                                           boolean explain, String whyNot) {
        Decision<D> d = pack.decide(bundle, input, explain || whyNot != null);
        return withWhyNot(commit(pack, endpoint, input, d), d, whyNot);
    }

    private static List<JsonNode> items(byte[] body) throws InputException {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        List<JsonNode> items = new ArrayList<>();
        if (text.startsWith("[")) {
            JsonNode array = Json.parse(body);
            array.forEach(items::add);
        } else {
            String[] lines = text.split("\\R");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) {
                    continue;
                }
                try {
                    items.add(Json.parse(lines[i]));
                } catch (InputException e) {
                    throw new InputException("[" + items.size() + "]", "line " + (i + 1) + ": " + e.getMessage(), true);
                }
            }
        }
        if (items.isEmpty()) {
            throw new InputException("", "a batch needs at least one message (a JSON array or one JSON object per line)");
        }
        return items;
    }
}
