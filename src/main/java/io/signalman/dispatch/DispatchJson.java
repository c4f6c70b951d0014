package io.signalman.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Set;

/** The dispatch pack on the wire: strict input parsing, the input as logged, the decision's fields. */
final class DispatchJson {

    static final Set<String> ROLES = Set.of("user", "assistant", "tool");

    private DispatchJson() {
    }

    static InboundMessage parse(JsonNode json) throws InputException {
        InboundMessage m = Json.bind(Json.requireObject(json,
                "expected a JSON object with at least \"channel\""), InboundMessage.class);
        if (GoText.trim(m.channel()).isEmpty()) {
            throw new InputException("channel", "channel is required and must not be blank (\"telegram\", \"slack\", ...)");
        }
        for (int i = 0; i < m.history().size(); i++) {
            InboundMessage.Turn t = m.history().get(i);
            if (t == null) {
                throw new InputException("history[" + i + "]", "a history entry is an object: {\"role\": \"user\", \"tool_calls\": 0}");
            }
            if (t.role() == null || !ROLES.contains(t.role())) {
                throw new InputException("history[" + i + "].role", "role must be one of user, assistant, tool, not "
                        + (t.role() == null ? "missing" : "\"" + t.role() + "\""));
            }
            if (t.calls() < 0) {
                throw new InputException("history[" + i + "].tool_calls", "tool_calls must not be negative");
            }
        }
        return m;
    }

    static JsonNode input(InboundMessage m) {
        ObjectNode n = Json.object();
        putIf(n, "id", m.id());
        n.put("channel", m.channel());
        putIf(n, "account", m.account());
        place(n, "space", m.space());
        place(n, "chat", m.chat());
        putIf(n, "topic", m.topic());
        putIf(n, "sender", m.sender());
        if (m.mentioned() != null) {
            n.put("mentioned", m.mentioned());
        }
        putIf(n, "message", m.message());
        if (!m.history().isEmpty()) {
            ArrayNode h = n.putArray("history");
            for (InboundMessage.Turn t : m.history()) {
                ObjectNode e = h.addObject().put("role", t.role());
                if (t.toolCalls() != null) {
                    e.put("tool_calls", t.toolCalls());
                }
            }
        }
        return n;
    }

    static ObjectNode outcome(DispatchDecision d) {
        ObjectNode n = Json.object();
        n.put("agent_id", d.agentId());
        n.put("channel", d.channel());
        n.put("account_id", d.accountId());
        n.put("matched_by", d.matchedBy());
        ObjectNode policy = n.putObject("session_policy");
        d.sessionPolicy().dimensions().forEach(policy.putArray("dimensions")::add);
        ObjectNode links = policy.putObject("identity_links");
        d.sessionPolicy().identityLinks().forEach((k, ids) -> ids.forEach(links.putArray(k)::add));
        n.put("session_key", d.sessionKey());
        ObjectNode scope = n.putObject("session_scope");
        scope.put("agent", d.sessionScope().agent()).put("channel", d.sessionScope().channel())
                .put("account", d.sessionScope().account());
        d.sessionScope().dimensions().forEach(scope::put);
        ObjectNode model = n.putObject("model");
        model.put("name", d.model().name());
        model.put("light", d.model().light());
        model.put("score", d.model().score());
        Features f = d.model().features();
        model.putObject("features")
                .put("token_estimate", f.tokenEstimate())
                .put("code_block_count", f.codeBlockCount())
                .put("recent_tool_calls", f.recentToolCalls())
                .put("conversation_depth", f.conversationDepth())
                .put("has_attachments", f.hasAttachments());
        return n;
    }

    private static void putIf(ObjectNode n, String field, String value) {
        if (value != null) {
            n.put(field, value);
        }
    }

    private static void place(ObjectNode n, String field, InboundMessage.Place p) {
        if (p != null) {
            ObjectNode o = n.putObject(field);
            putIf(o, "type", p.type());
            putIf(o, "id", p.id());
        }
    }
}
