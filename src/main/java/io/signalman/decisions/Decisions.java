package io.signalman.decisions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Receipts;
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
import io.signalman.trials.Arms;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every transport does with a decision request: parse, decide with the pack's one
 * {@code decide}, log, render. HTTP, the event bus and the workbench's "try a message" all call
 * it, on a worker thread; it knows nothing of any transport (below http in the layers).
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
    /** Who counts each decision as it is made (the server's metrics); nothing by default. */
    private final java.util.function.Consumer<Decision<?>> counted;
    /**
     * A live trial's part in each decision (which rules decide it, what its record says of the
     * trial); none until the server's wiring sets the trials.
     */
    private volatile Arms arms = Arms.NONE;
    /** Where each decision's span goes ({@code --otel-endpoint}); off until the server's wiring sets it. */
    private volatile io.signalman.tracing.Tracing tracing = io.signalman.tracing.Tracing.OFF;
    private final Breaches breaches = new Breaches();
    /** Who sees each committed decision as it is logged (the workbench's live tail). */
    private final List<java.util.function.Consumer<DecisionRecord>> taps = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Decisions(Engine engine, DecisionLog log, StateStores stores) {
        this(engine, log, stores, d -> { });
    }

    /** {@code counted} sees every decision as it is made, on the deciding thread: it must return at once. */
    public Decisions(Engine engine, DecisionLog log, StateStores stores, java.util.function.Consumer<Decision<?>> counted) {
        this.engine = engine;
        this.log = log;
        this.stores = stores;
        this.counted = counted;
    }

    /**
     * Adds a listener that sees every decision record as it is logged, on the deciding worker
     * thread: it must return at once (hand the record over, never wait).
     */
    public void tap(java.util.function.Consumer<DecisionRecord> listener) {
        taps.add(listener);
    }

    public void untap(java.util.function.Consumer<DecisionRecord> listener) {
        taps.remove(listener);
    }

    private void tapped(DecisionRecord record) {
        for (java.util.function.Consumer<DecisionRecord> tap : taps) {
            tap.accept(record);
        }
    }

    /**
     * Lets a live trial take part in every decision from now on: HTTP, the event bus and the
     * workbench all decide here, so a trial sees them all. Set once by the server's wiring.
     */
    public void arms(Arms trialArms) {
        this.arms = java.util.Objects.requireNonNull(trialArms);
    }

    /**
     * Makes a span of every decision from now on, a child of its request's ({@code signalman.decide
     * <pack>}, with the pack, the rule that decided, the revision and the trial arm). Set once by
     * the server's wiring, after the warm-up.
     */
    public void tracing(io.signalman.tracing.Tracing spans) {
        this.tracing = java.util.Objects.requireNonNull(spans);
    }

    /** The server's state stores (FSM instances, conversations); they outlive rule reloads. */
    public StateStores stores() {
        return stores;
    }

    /** The decision log every decision is committed to. */
    public DecisionLog log() {
        return log;
    }

    public Engine engine() {
        return engine;
    }

    /** The state store of a stateful pack, by the pack's name. */
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
        return decideQueued(pack, endpoint, body, explain, whyNot).await();
    }

    /**
     * Decides one request body and queues its record, without waiting for it: the answer it
     * returns may leave only once that record is durable ({@link Queued}). Runs on a worker
     * thread; for a stateless pack (a stateful one holds its key's lock until the record is
     * written, see {@link #commit}).
     */
    public <I, D> Queued decideQueued(DecisionPack<I, D> pack, String endpoint, byte[] body, boolean explain, String whyNot)
            throws InputException {
        I input = pack.parseInput(Json.parse(body));
        log.ensureAvailable();
        RuleBundle bundle = engine.bundle();
        requireRule(bundle, pack, whyNot);
        Decision<D> d = live(pack, bundle, input, explain || whyNot != null);
        return commitQueued(pack, endpoint, input, d, whyNot);
    }

    /**
     * Queues the record of a decision that changes no state (it may have read some: a signal's
     * agent state is logged as {@code state_before}) and returns its answer, with {@code why_not}
     * for {@code rule} when asked, to be sent once the record is durable ({@link Queued}).
     */
    public <I, D> Queued commitQueued(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d, String whyNot) {
        ObjectNode outcome = pack.outcomeJson(d.outcome());
        DecisionRecord record = record(pack, endpoint, input, d, outcome, null);
        DecisionLog.Appended a = log.append(record);
        byte[] answer = Json.bytes(withWhyNot(d.toJson(outcome), d, whyNot));
        return new Queued(answer, log, a, () -> {
            tapped(record);
            logged(d, endpoint);
        });
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
        log.ensureAvailable();
        RuleBundle bundle = engine.bundle();
        requireRule(bundle, pack, whyNot);
        List<Decision<D>> made = new ArrayList<>(inputs.size());
        List<DecisionRecord> records = new ArrayList<>(inputs.size());
        List<ObjectNode> outcomes = new ArrayList<>(inputs.size());
        for (I input : inputs) {
            Decision<D> d = live(pack, bundle, input, explain || whyNot != null);
            ObjectNode outcome = pack.outcomeJson(d.outcome());
            made.add(d);
            outcomes.add(outcome);
            records.add(record(pack, endpoint, input, d, outcome, null));
        }
        // In decision order, acknowledged together: the writer takes them in one batch or a few.
        List<DecisionLog.Appended> appended = new ArrayList<>(records.size());
        for (DecisionRecord r : records) {
            appended.add(log.append(r));
            tapped(r);
        }
        for (DecisionLog.Appended a : appended) {
            log.awaitDurable(a);
        }
        // The last record's receipt stands for the batch: the log is written in order.
        receipt(appended.get(appended.size() - 1));
        ArrayNode out = Json.array();
        for (int i = 0; i < made.size(); i++) {
            logged(made.get(i), endpoint);
            out.add(withWhyNot(made.get(i).toJson(outcomes.get(i)), made.get(i), whyNot));
        }
        return Json.bytes(out);
    }

    /** Breaches of the decision budgets on live traffic, and what quarantines a revision. */
    public Breaches breaches() {
        return breaches;
    }

    /**
     * One live decision; one stopped over its budget counts against its revision ({@link Breaches}).
     * With tracing on it is a span, {@code signalman.decide <pack>}, under the request's.
     */
    private <I, D> Decision<D> live(DecisionPack<I, D> pack, RuleBundle bundle, I input, boolean explain) {
        io.signalman.tracing.Tracing t = tracing;
        if (!t.on()) {
            return budgeted(pack, bundle, input, explain);
        }
        io.opentelemetry.api.trace.Span span = t.tracer().spanBuilder("signalman.decide " + pack.name())
                .setAttribute(DecisionSpans.PACK, pack.name()).setAttribute(DecisionSpans.REVISION, bundle.revision())
                .startSpan();
        try (io.opentelemetry.context.Scope ignored = span.makeCurrent()) {
            Decision<D> d = budgeted(pack, bundle, input, explain);
            DecisionSpans.decided(span, d, arms.trialOf(d));
            return d;
        } catch (RuntimeException | Error e) {
            DecisionSpans.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private <I, D> Decision<D> budgeted(DecisionPack<I, D> pack, RuleBundle bundle, I input, boolean explain) {
        try {
            return arms.decide(pack, bundle, input, explain);
        } catch (io.signalman.engine.EvaluationTooCostlyException e) {
            breaches.record(bundle.revision(), pack.name(), bundle.pack(pack.name()).map(p -> p.costliest()).orElse(null),
                    e.getMessage());
            throw e;
        }
    }

    /**
     * Evaluates without logging: a stateful pack evaluates, then compare-and-sets its state, and
     * only a decision whose state change won is committed. Runs on a worker thread.
     */
    public <I, D> Decision<D> evaluate(DecisionPack<I, D> pack, I input, boolean explain) {
        // Refused before any state moves while the disk cannot take writes (503 storage_unavailable).
        log.ensureAvailable();
        return live(pack, engine.bundle(), input, explain);
    }

    /**
     * Logs a decision (with the state it was made from) and returns its response body, once its
     * record is written (and, under {@code --fsync always}, forced): an answer never leaves
     * before its record.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refused the record: nothing is logged
     */
    public <I, D> ObjectNode commit(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d) {
        return commit(pack, endpoint, input, d, null);
    }

    /**
     * Logs a decision that changed state, with {@code stateAfter} (a {@code StateLine}: the
     * decision log is the write-ahead log of durable state), and waits until its record is
     * written (forced under {@code always}). Called while the state store holds the change, which
     * becomes visible only when this returns; when it throws, the change is not made.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refused the record: nothing is logged
     */
    public <I, D> ObjectNode commit(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d, JsonNode stateAfter) {
        ObjectNode outcome = pack.outcomeJson(d.outcome());
        DecisionRecord record = record(pack, endpoint, input, d, outcome, stateAfter);
        DecisionLog.Appended a = log.append(record);
        log.awaitDurable(a);
        receipt(a);
        tapped(record);
        logged(d, endpoint);
        return d.toJson(outcome);
    }

    /** Tells the request's idempotency answer where its record is (see {@link Receipts}). */
    private static void receipt(DecisionLog.Appended a) {
        Receipts.log(a.file(), a.end());
    }

    /** The decision's record; during a trial it names the trial and the arm whose rules made it. */
    private <I, D> DecisionRecord record(DecisionPack<I, D> pack, String endpoint, I input, Decision<D> d,
                                         ObjectNode outcome, JsonNode stateAfter) {
        return new DecisionRecord(d.decisionId(), Instant.now().toString(), pack.name(), endpoint, d.revision(),
                pack.inputJson(input), d.recordJson(outcome), pack.stateBefore(input), stateAfter, arms.committed(d),
                io.signalman.tracing.Tracing.traceId());
    }

    private void logged(Decision<?> d, String endpoint) {
        counted.accept(d);
        if (DECISION_LOG.isDebugEnabled()) {
            DECISION_LOG.debug(LogLine.decision(d, endpoint));
        }
    }

    /**
     * The items of a batch. JSONL is split on the raw bytes and each line parsed as it was sent:
     * decoding the whole body to text first would turn invalid UTF-8 into U+FFFD and decide on
     * altered text; the strict parser refuses it instead, naming the line.
     */
    private static List<JsonNode> items(byte[] body) throws InputException {
        int first = 0;
        while (first < body.length && isBlank(body[first])) {
            first++;
        }
        List<JsonNode> items = new ArrayList<>();
        if (first < body.length && body[first] == '[') {
            JsonNode array = Json.parse(body);
            array.forEach(items::add);
        } else {
            int line = 0;
            for (int start = 0; start <= body.length; line++) {
                int end = start;
                while (end < body.length && body[end] != '\n') {
                    end++;
                }
                byte[] text = java.util.Arrays.copyOfRange(body, start, end);
                start = end + 1;
                if (blank(text)) {
                    continue;
                }
                try {
                    items.add(Json.parse(text));
                } catch (InputException e) {
                    throw new InputException(e.within("[" + items.size() + "]").field(), "line " + (line + 1) + ": "
                            + e.getMessage(), e.malformed());
                }
            }
        }
        if (items.isEmpty()) {
            throw new InputException("", "a batch needs at least one message (a JSON array or one JSON object per line)");
        }
        return items;
    }

    private static boolean blank(byte[] line) {
        for (byte b : line) {
            if (!isBlank(b)) {
                return false;
            }
        }
        return true;
    }

    /** JSON's whitespace (RFC 8259): what may surround a line's value. */
    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
