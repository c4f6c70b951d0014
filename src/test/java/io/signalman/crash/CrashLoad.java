package io.signalman.crash;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One load worker of the crash harness: over keep-alive connections, a mix of every stateful and
 * stateless endpoint (broker messages keyed by their id, dispatch, signals, FSM creates and
 * actions and handoff creates, turns and user input, each with an Idempotency-Key), driving its
 * own FSM instances and conversation so that what each acknowledged answer says about their state
 * is known. Every request is kept with its answer; the one on its way when the server dies stays
 * unanswered.
 */
final class CrashLoad implements Runnable {

    private static final String BROKER = "{\"id\": \"%s\", \"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
            + " \"type\": \"event\", \"subtype\": \"trade.executed\", \"payload\": {\"n\": %d}}";
    private static final String DISPATCH = "{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"},"
            + " \"sender\": \"U%d\", \"message\": \"order %d is late\"}";
    private static final String SIGNAL = "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\", \"payload\": {\"n\": %d}}}";

    private final String name;
    private final CrashHttp http;
    private final List<Entity> instances;
    private final Entity conversation;
    private final Random random;
    private final AtomicBoolean stop;
    private final Runnable acknowledged;
    final List<Op> sent = new ArrayList<>();
    private int n;

    /** {@code acknowledged} runs the moment an answer arrives (the harness kills right after one). */
    CrashLoad(String name, CrashHttp http, List<Entity> instances, Entity conversation, long seed, AtomicBoolean stop,
              Runnable acknowledged) {
        this.name = name;
        this.http = http;
        this.instances = instances;
        this.conversation = conversation;
        this.random = new Random(seed);
        this.stop = stop;
        this.acknowledged = acknowledged;
        this.n = (int) (seed & 0xffff) * 100_000;
    }

    @Override
    public void run() {
        while (!stop.get()) {
            Op op = next();
            sent.add(op);
            HttpResponse<String> r;
            try {
                r = http.send(op);
            } catch (IOException e) {
                return; // the server is gone: this request stays unanswered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            op.answer = r.body();
            op.status = r.statusCode();
            if (op.acknowledged()) {
                acknowledged.run();
            }
            if (!apply(op)) {
                if (!resync(op.entity)) {
                    return;
                }
                // A 5xx (a deadline answered while the worker was still busy) may still take effect later.
                op.entity.uncertain |= op.status >= 500;
            }
        }
    }

    private Op next() {
        n++;
        Entity fsm = instances.get(random.nextInt(instances.size()));
        if (!conversation.exists) {
            return keyed(Op.Kind.CONVERSATION_CREATE, "/v1/handoff/conversations",
                    "{\"crew\": \"support\", \"id\": \"" + conversation.id + "\"}", conversation);
        }
        if (!fsm.exists) {
            return keyed(Op.Kind.FSM_CREATE, "/v1/fsm/instances", "{\"id\": \"" + fsm.id + "\", \"machine\": \"review-flow\"}", fsm);
        }
        int pick = random.nextInt(100);
        if (pick < 25) {
            String id = name + "-m" + n;
            return new Op(Op.Kind.BROKER, "/v1/broker/route", BROKER.formatted(id, n), null, true, null);
        } else if (pick < 35) {
            return new Op(Op.Kind.DISPATCH, "/v1/dispatch", DISPATCH.formatted(n % 7, n), null, false, null);
        } else if (pick < 45) {
            return new Op(Op.Kind.SIGNALS, "/v1/signals/route", SIGNAL.formatted(n), null, false, null);
        } else if (pick < 75) {
            String action = switch (fsm.state) {
                case "idle" -> "{\"action\": \"start\"}";
                case "running" -> "{\"action\": \"review\", \"payload\": {\"quality\": 0.5}}";
                default -> "{\"action\": \"restart\"}";
            };
            return keyed(Op.Kind.FSM_ACTION, fsm.path() + "/actions", action, fsm);
        } else if (conversation.agent == null) {
            return keyed(Op.Kind.USER_INPUT, conversation.path() + "/user-input", "{}", conversation);
        }
        return keyed(Op.Kind.TURN, conversation.path() + "/turns", "{\"agent\": \"" + conversation.agent
                + "\", \"response\": \"noted " + n + "\", \"tool_calls\": 0}", conversation);
    }

    private Op keyed(Op.Kind kind, String path, String body, Entity e) {
        return new Op(kind, path, body, name + "-k" + n, true, e);
    }

    /** Applies an answer to what the worker knows of its entity; false when only a read can tell. */
    private boolean apply(Op op) {
        Entity e = op.entity;
        if (e == null) {
            return true;
        }
        if (op.status >= 500) {
            return false;
        }
        JsonNode a = parse(op.answer);
        switch (op.kind) {
            case FSM_CREATE -> {
                if (op.status != 201) {
                    return false;
                }
                e.exists = true;
                e.state = a.path("current_state").asText();
            }
            case FSM_ACTION -> {
                if (op.status == 200) {
                    e.state = a.path("to").asText();
                } else if (op.status == 409 && a.hasNonNull("current_state")) {
                    e.state = a.get("current_state").asText();
                } else {
                    return false;
                }
            }
            case CONVERSATION_CREATE, USER_INPUT -> {
                if (op.status != 201 && op.status != 200) {
                    return false;
                }
                e.exists = true;
                e.count = a.path("handoff_count").asInt();
                e.agent = a.path("current_agent").asText(null);
            }
            case TURN -> {
                if (op.status != 200) {
                    return false;
                }
                e.count = a.path("handoff_count").asInt();
                String type = a.at("/next/type").asText();
                e.agent = "agent".equals(type) ? a.at("/next/agent").asText() : "rerun".equals(type) ? e.agent : null;
            }
            default -> {
            }
        }
        return true;
    }

    /** Reads the entity back after an answer that did not say what it is now; false when the server is gone. */
    private boolean resync(Entity e) {
        try {
            HttpResponse<String> r = http.get(e.path());
            e.read(r.statusCode(), parse(r.body()));
            return true;
        } catch (IOException x) {
            e.uncertain = true;
            return false;
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static JsonNode parse(String body) {
        try {
            return body == null || body.isEmpty() ? Json.object() : Json.parse(body);
        } catch (io.signalman.json.InputException e) {
            return Json.object();
        }
    }
}
