package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisions.Decisions;
import io.signalman.packs.Packs;
import io.signalman.engine.Decision;
import io.signalman.engine.Ulid;
import io.signalman.handoff.ConversationRefused;
import io.signalman.handoff.ConversationRefused.Reason;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.Crew;
import io.signalman.handoff.HandoffOutcome;
import io.signalman.handoff.HandoffPack;
import io.signalman.handoff.HandoffReference;
import io.signalman.handoff.TurnInput;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.Expired;
import io.signalman.state.StateLine;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Handoff conversations over the server's state store. A turn is evaluated purely from
 * the state it read, then compare-and-set; the loser of a race re-reads and re-decides, and only
 * the decision whose state change won is logged (with its {@code state_before}). Every method
 * runs on a worker thread.
 */
final class HandoffConversations {

    static final String TURNS = "/v1/handoff/conversations/{id}/turns";
    /** A conflict retries at once; this many in a row means something is wrong, not busy. */
    private static final int MAX_ATTEMPTS = 1000;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final Decisions decisions;
    private final StateStore<ConversationState> store;
    private final HandoffPack pack = Packs.HANDOFF;

    HandoffConversations(Decisions decisions) {
        this.decisions = decisions;
        this.store = decisions.state(HandoffPack.NAME);
    }

    /** {@code {"crew", "id"?}} -> the new conversation. */
    ObjectNode create(JsonNode body) throws InputException {
        CreateBody b = Json.bind(object(body), CreateBody.class);
        if (b.crew() == null || b.crew().isBlank()) {
            throw new InputException("crew", "crew is required: the name of a crew in rules/handoff/");
        }
        HandoffReference ref = reference();
        // Like an unknown machine: well-formed, but the loaded rules have no such crew (422, not 400).
        Crew crew = ref.crew(b.crew()).orElseThrow(() -> new io.signalman.engine.Refused(
                io.signalman.engine.Refused.Kind.UNPROCESSABLE, "unknown_crew", "no crew is named \"" + b.crew()
                + "\"; the crews are " + new java.util.TreeSet<>(ref.crews().keySet())));
        String id = b.id() == null ? Ulid.next() : b.id();
        if (!ID.matcher(id).matches()) {
            throw new InputException("id", "id must be 1 to 128 letters, digits, '.', '_', ':' or '-'");
        }
        ConversationState s = ConversationState.start(crew);
        store.create(id, s).orElseThrow(() -> ConversationRefused.of(Reason.ALREADY_EXISTS,
                "conversation \"" + id + "\" already exists", store.get(id).map(Versioned::value).orElse(null)));
        return snapshot(id, s);
    }

    ObjectNode get(String id) {
        return snapshot(id, read(id).value());
    }

    /** Decides one turn; retries on a lost compare-and-set until its state change wins. */
    ObjectNode turn(String id, JsonNode body, boolean explain) throws InputException {
        return turn(id, body, explain, null);
    }

    /** A turn whose answer also carries {@code why_not} for one rule (null for none). */
    ObjectNode turn(String id, JsonNode body, boolean explain, String whyNot) throws InputException {
        decisions.requireRule(pack, whyNot);
        TurnInput request = pack.parseTurn(object(body), id);
        if (request.conversationId() == null) {
            throw new InputException("conversation_id", "conversation_id is required");
        }
        if (id != null && !request.conversationId().equals(id)) {
            throw new InputException("conversation_id", "conversation_id \"" + request.conversationId()
                    + "\" in the body differs from \"" + id + "\" in the path; send one or make them agree");
        }
        String key = request.conversationId();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Versioned<ConversationState> v = read(key);
            expect(key, v.value(), request.agent());
            TurnInput input = request.withState(v.value());
            Decision<HandoffOutcome> d = decisions.evaluate(pack, input, explain);
            List<ObjectNode> done = new java.util.ArrayList<>(1);
            // The turn's record is written while the store holds the change, which is seen only once it is.
            if (store.compareAndSet(key, v.version(), d.outcome().stateAfter(), after -> done.add(decisions.commit(pack,
                    TURNS, input, d, StateLine.after(HandoffPack.NAME, key, after, after.value().toJson())))).isPresent()) {
                return Decisions.withWhyNot(done.get(0), d, whyNot);
            }
        }
        throw new IllegalStateException("conversation " + key + " kept changing under " + MAX_ATTEMPTS + " attempts");
    }

    /**
     * New user input: a new handoff count. The paused agent resumes, a running conversation keeps
     * its current agent, and anything else (terminated, ended, mid-group) starts at the entry agent.
     */
    ObjectNode userInput(String id, JsonNode body) throws InputException {
        if (body != null && !body.isMissingNode()) {
            Json.bind(object(body), UserInputBody.class);
        }
        while (true) {
            Versioned<ConversationState> v = read(id);
            ConversationState s = v.value();
            Crew crew = reference().crew(s.crew()).orElseThrow(() -> ConversationRefused.of(Reason.CREW_GONE,
                    "crew \"" + s.crew() + "\" is no longer in the rules", s));
            boolean resume = s.status() == ConversationState.Status.PAUSED
                    || s.status() == ConversationState.Status.RUNNING && s.group() == null;
            String agent = resume && s.currentAgent() != null ? s.currentAgent() : crew.entryAgent();
            ConversationState next = new ConversationState(s.crew(), ConversationState.Status.RUNNING, agent, null,
                    List.of(), 0);
            if (store.compareAndSet(id, v.version(), next).isPresent()) {
                return snapshot(id, next);
            }
        }
    }

    private void expect(String id, ConversationState s, String agent) {
        if (s.status() != ConversationState.Status.RUNNING) {
            throw ConversationRefused.of(Reason.NOT_RUNNING, "conversation \"" + id + "\" is "
                    + s.status().name().toLowerCase(java.util.Locale.ROOT)
                    + "; send user input (POST .../user-input) to start a new round", s);
        }
        Crew.Group group = s.group() == null ? null : reference().crew(s.crew()).flatMap(c -> c.group(s.group())).orElse(null);
        List<String> expected = ConversationRefused.expected(group, s);
        if (!expected.contains(agent)) {
            throw ConversationRefused.of(Reason.UNEXPECTED_AGENT, "conversation \"" + id + "\" expects a turn from "
                    + expected + ", not from \"" + agent + "\"", s);
        }
    }

    /** The conversation; 410 when retention removed it (its tombstone still kept), else 404. */
    private Versioned<ConversationState> read(String id) {
        return store.get(id).orElseThrow(() -> store.expiredAt(id).map(at -> Expired.of("conversation", id, at))
                .orElseGet(() -> ConversationRefused.of(Reason.NOT_FOUND, "no conversation has id \"" + id + "\"", null)));
    }

    private HandoffReference reference() {
        return decisions.engine().bundle().requirePack(HandoffPack.NAME).reference().as(HandoffReference.class);
    }

    private static ObjectNode snapshot(String id, ConversationState s) {
        ObjectNode n = Json.object();
        n.put("id", id);
        n.put("crew", s.crew());
        n.put("status", s.status().name().toLowerCase(java.util.Locale.ROOT));
        n.put("current_agent", s.currentAgent());
        n.put("group", s.group());
        s.reported().forEach(r -> n.withArray("reported").add(r.agent()));
        n.put("handoff_count", s.handoffCount());
        return n;
    }

    private static JsonNode object(JsonNode body) throws InputException {
        return Json.requireObject(body, "expected a JSON object");
    }

    record CreateBody(String crew, String id) {
    }

    /** The router keeps no history (the orchestrator does); the text is accepted and not stored. */
    record UserInputBody(String text) {
    }
}
