package io.signalman.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisions.Decisions;
import io.signalman.packs.Packs;
import io.signalman.fsm.ActionRequest;
import io.signalman.fsm.FsmInstance;
import io.signalman.fsm.FsmOutcome;
import io.signalman.fsm.FsmService;
import io.signalman.fsm.Machine;
import io.signalman.fsm.Machines;
import io.signalman.fsm.Transition;
import io.signalman.engine.Refused;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.StateLine;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** FSM instances and machines. Restoring a snapshot is an admin act. */
final class FsmApi implements ApiModule {

    static final String ACTIONS = "/v1/fsm/instances/:id/actions";
    static final String ADDRESS = "signalman.fsm.action";

    @Override
    public void routes(Router router, Api api) {
        router.post("/v1/fsm/instances").handler(api.body()).handler(ctx -> create(ctx, api));
        router.get("/v1/fsm/instances/:id").handler(ctx -> api.blocking(ctx, 200,
                () -> Json.bytes(withId(service(api).get(ctx.pathParam("id")).snapshot(), ctx.pathParam("id")))));
        router.post(ACTIONS).handler(api.body()).handler(ctx -> act(ctx, api));
        router.get("/v1/fsm/machines").handler(ctx -> api.blocking(ctx, 200, () -> Json.bytes(machines(service(api)))));
        router.get("/v1/fsm/machines/:machine").handler(ctx -> api.blocking(ctx, 200,
                () -> Json.bytes(table(service(api).machines(), ctx.pathParam("machine")))));
    }

    @Override
    public void adminRoutes(Router router, Api api) {
        // Vert.x Web runs a body handler before any user handler, so the gate comes second.
        router.put("/v1/fsm/instances/:id").handler(api.body()).handler(api.gate(io.signalman.people.Role.OPERATOR))
                .handler(ctx -> restore(ctx, api));
    }

    @Override
    public void addresses(Api api) {
        api.replyWith(ADDRESS, (body, explain) -> {
            ActionRequest r = ActionRequest.parse(Json.parse(body), true);
            return reply(apply(api, r.id(), r, explain, null));
        });
    }

    static FsmService service(Api api) {
        Decisions d = api.decisions();
        return new FsmService(d.stores().named(FsmService.STORE), d.engine()::bundle,
                (step, explain) -> d.evaluate(Packs.FSM, step, explain));
    }

    private static void create(RoutingContext ctx, Api api) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        byte[] body = Api.bodyBytes(ctx);
        api.blocking(ctx, 201, () -> {
            var json = Json.requireObject(Json.parse(body), "expected {\"id\": \"agent-7\", \"machine\": \"review-flow\"}");
            CreateBody b = Json.bind(json, CreateBody.class);
            for (String f : new String[] {"id", "machine"}) {
                if (!json.path(f).isTextual() || json.get(f).asText().isBlank()) {
                    throw new InputException(f, f + " is required and must be a non-blank string");
                }
            }
            String id = b.id();
            return Json.bytes(withId(service(api).create(id, b.machine()).snapshot(), id));
        });
    }

    /** The body of a create: binding it names an unknown field or a wrong type precisely. */
    record CreateBody(String id, String machine) {
    }

    private static void restore(RoutingContext ctx, Api api) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        byte[] body = Api.bodyBytes(ctx);
        String id = ctx.pathParam("id");
        api.blocking(ctx, 200, () -> {
            ObjectNode restored = withId(service(api).restore(id, FsmInstance.fromSnapshot(Json.parse(body))).snapshot(), id);
            // A change of state by force is an operator's act: the audit log keeps who did it.
            api.people().record(Api.principal(ctx), "fsm_restored", Json.object().put("instance", id)
                    .put("state", restored.path("current_state").asText(null)));
            return Json.bytes(restored);
        });
    }

    /** Every answer about one instance names it: create, get and restore alike. */
    private static ObjectNode withId(ObjectNode snapshot, String id) {
        ObjectNode out = Json.object();
        out.put("id", id);
        out.setAll(snapshot);
        return out;
    }

    private static void act(RoutingContext ctx, Api api) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        byte[] body = Api.bodyBytes(ctx);
        String id = ctx.pathParam("id");
        boolean explain = Api.explain(ctx);
        String whyNot = Api.whyNot(ctx);
        api.respond(ctx, () -> reply(apply(api, id, ActionRequest.parse(Json.parse(body), false), explain, whyNot)));
    }


    /** A refused action (invalid_transition, guard_rejected) is a 409 carrying the decision. */
    private static Api.Reply reply(ObjectNode out) {
        return new Api.Reply(out.has("error") ? 409 : 200, Json.bytes(out));
    }

    /** Applies the action and logs the decision, refusals included (they are decisions too). */
    private static ObjectNode apply(Api api, String id, ActionRequest r, boolean explain, String whyNot) {
        api.decisions().requireRule(Packs.FSM, whyNot);
        // Before the state can move: a decision that cannot be logged is not made (503 storage_unavailable).
        api.decisions().log().ensureAvailable();
        FsmService fsm = service(api);
        Decisions decisions = api.decisions();
        record Done(FsmService.Applied applied, ObjectNode body) {
        }
        // A move's record is written while the store holds the change, which is seen only once it is.
        Done done = fsm.act(id, r.action(), r.payload(), explain, (applied, after) -> new Done(applied, decisions.commit(
                Packs.FSM, ACTIONS, applied.step(), applied.decision(), after == null ? null
                        : StateLine.after(FsmService.STORE, id, after, after.value().snapshot()))));
        FsmService.Applied a = done.applied();
        ObjectNode out = Decisions.withWhyNot(done.body(), a.decision(), whyNot);
        if (a.decision().outcome() instanceof FsmOutcome.InvalidTransition i) {
            out.put("message", "no transition for action \"" + i.action() + "\" from state \"" + i.currentState() + "\"");
        } else if (a.decision().outcome() instanceof FsmOutcome.GuardRejected g) {
            out.put("message", "every guard for action \"" + g.action() + "\" from state \"" + g.currentState() + "\" failed");
        }
        return out;
    }

    private static ArrayNode machines(FsmService fsm) {
        ArrayNode out = Json.array();
        for (Machine m : fsm.machines().all()) {
            ObjectNode n = out.addObject();
            n.put("name", m.name());
            n.put("initial_state", m.initial());
            m.states().forEach(n.putArray("states")::add);
            fsm.machines().actions(m.name()).forEach(n.putArray("actions")::add);
        }
        return out;
    }

    private static ObjectNode table(Machines machines, String name) {
        Machine m = machines.machine(name).orElseThrow(() -> new Refused(Refused.Kind.NOT_FOUND, "unknown_machine",
                "no machine \"" + name + "\""));
        ObjectNode n = Json.object();
        n.put("name", m.name());
        n.put("initial_state", m.initial());
        m.states().forEach(n.putArray("states")::add);
        ArrayNode rows = n.putArray("transitions");
        for (Transition t : machines.transitions(name)) {
            ObjectNode row = rows.addObject();
            row.put("from", t.from()).put("action", t.action()).put("to", t.to());
            row.put("guard", t.guard());
            row.put("rule", t.rule().name()).put("salience", t.rule().salience());
            row.put("file", t.rule().file()).put("line", t.rule().line());
        }
        n.put("mermaid", machines.mermaid(name));
        return n;
    }
}
