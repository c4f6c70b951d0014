package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.people.Role;
import io.signalman.people.UserStore;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code /v1/admin/users}: a running server's users, changed at once (a removed or rotated token
 * is refused from the next request on), each change recorded in the audit log. The same changes
 * as {@code signalman users} makes to a data directory no server holds. Admin only. A new token
 * is answered once, with {@code Cache-Control: no-store}, and kept nowhere but as its hash.
 */
final class UsersApi {

    static final String PATH = "/v1/admin/users";

    private UsersApi() {
    }

    static void routes(Router router, Api api) {
        router.get(PATH).handler(api.gate(Role.ADMIN)).handler(ctx -> api.blocking(ctx, 200, () -> list(api)));
        router.post(PATH).handler(api.body()).handler(api.gate(Role.ADMIN)).handler(ctx -> add(ctx, api));
        // A user change is outside the decisions' deadline: a token answered 503 after its user was made would be lost.
        router.delete(PATH + "/:name").handler(api.gate(Role.ADMIN)).handler(ctx -> api.respondUnguarded(ctx,
                () -> new Api.Reply(200, Json.bytes(Json.object().set("removed", api.people().removeUser(ctx.pathParam("name"),
                        Api.principal(ctx)).toJson())))));
        router.post(PATH + "/:name/rotate").handler(api.gate(Role.ADMIN)).handler(ctx -> {
            noStore(ctx);
            api.respondUnguarded(ctx, () -> new Api.Reply(200, issued(api.people().rotate(ctx.pathParam("name"),
                    Api.principal(ctx)))));
        });
    }

    private static byte[] list(Api api) {
        ObjectNode n = Json.object();
        ArrayNode a = n.putArray("users");
        api.people().users().list().forEach(u -> a.add(u.toJson()));
        n.put("bootstrap_admin", api.people().authenticator().adminName());
        return Json.bytes(n);
    }

    private static void add(RoutingContext ctx, Api api) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        byte[] body = Api.bodyBytes(ctx);
        noStore(ctx);
        api.respondUnguarded(ctx, () -> new Api.Reply(201, add(api, ctx, body)));
    }

    private static byte[] add(Api api, RoutingContext ctx, byte[] body) throws InputException {
        JsonNode req = Json.parse(body);
        if (!req.isObject()) {
            throw new InputException("", "send {\"name\": \"ana\", \"roles\": [\"author\"]}");
        }
        for (Iterator<String> it = req.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!f.equals("name") && !f.equals("roles")) {
                throw new InputException(f, "unknown field \"" + Api.shorten(f) + "\": a user has a name and roles");
            }
        }
        if (!req.path("name").isTextual()) {
            throw new InputException("name", "\"name\" is required: the user's name, as a string");
        }
        JsonNode roles = req.path("roles");
        if (!roles.isArray() || roles.isEmpty()) {
            throw new InputException("roles", "\"roles\" is required: a non-empty array of viewer, author, approver, operator, "
                    + "admin");
        }
        Set<Role> set = new TreeSet<>();
        for (int i = 0; i < roles.size(); i++) {
            try {
                set.add(Role.parse(roles.get(i).isTextual() ? roles.get(i).asText() : Json.write(roles.get(i))));
            } catch (IllegalArgumentException e) {
                throw new InputException("roles[" + i + "]", e.getMessage());
            }
        }
        return issued(api.people().addUser(req.get("name").asText(), set, Api.principal(ctx)));
    }

    private static byte[] issued(UserStore.Issued issued) {
        ObjectNode n = Json.object();
        n.set("user", issued.user().toJson());
        n.put("token", issued.token());
        n.put("note", "the token is shown this once and kept only as a hash: hand it to " + issued.user().name()
                + ", who sends it as Authorization: Bearer <token>");
        return Json.bytes(n);
    }

    private static void noStore(RoutingContext ctx) {
        ctx.response().putHeader("cache-control", "no-store");
    }
}
