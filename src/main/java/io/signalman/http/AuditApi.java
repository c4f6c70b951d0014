package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.people.AuditLog;
import io.signalman.people.Role;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code GET /v1/audit}: the audit log (in a cluster, the cluster's one chain), oldest first,
 * paged with {@code after} (the last {@code seq} read) and {@code limit} (at most
 * {@link #MAX_LIMIT}). Operators and admins. {@code format=jsonl} answers the page as lines, one
 * entry each as written, which {@code signalman audit verify --export FILE} proves.
 */
final class AuditApi {

    static final String PATH = "/v1/audit";
    static final int MAX_LIMIT = 1000;

    private AuditApi() {
    }

    static void routes(Router router, Api api) {
        router.get(PATH).handler(api.gate(Role.OPERATOR)).handler(ctx -> {
            if (!"jsonl".equals(ctx.queryParams().get("format"))) {
                api.blocking(ctx, 200, () -> page(ctx, api.people().audit(), false));
                return;
            }
            api.vertx().executeBlocking(() -> page(ctx, api.people().audit(), true), false)
                    .onSuccess(b -> ctx.response().setStatusCode(200).putHeader("content-type", "text/plain; charset=utf-8")
                            .end(io.vertx.core.buffer.Buffer.buffer(b)))
                    .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
        });
    }

    private static byte[] page(RoutingContext ctx, AuditLog log, boolean lines) throws InputException {
        long after = number(ctx, "after", 0, Long.MAX_VALUE, 0);
        int limit = (int) number(ctx, "limit", 1, MAX_LIMIT, 100);
        List<JsonNode> all = log.entries();
        int from = (int) Math.min(after, all.size());
        List<JsonNode> page = all.subList(from, Math.min(all.size(), from + limit));
        if (lines) {
            StringBuilder b = new StringBuilder();
            page.forEach(e -> b.append(Json.write(e)).append('\n'));
            return b.toString().getBytes(StandardCharsets.UTF_8);
        }
        ObjectNode n = Json.object();
        ArrayNode a = n.putArray("entries");
        page.forEach(a::add);
        n.put("total", all.size());
        if (from + page.size() < all.size()) {
            n.put("next_after", from + page.size());
        } else {
            n.putNull("next_after");
        }
        n.put("head", log.head());
        n.put("cluster", log.shared());
        return Json.bytes(n);
    }

    private static long number(RoutingContext ctx, String name, long min, long max, long otherwise) throws InputException {
        String v = ctx.queryParams().get(name);
        if (v == null) {
            return otherwise;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InputException(name, "\"" + name + "\" must be a whole number from " + min + " to " + max);
    }
}
