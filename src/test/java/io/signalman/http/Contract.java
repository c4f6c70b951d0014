package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestValidator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.Yaml;

/**
 * openapi.yaml as a test sees it: the parsed contract, a referee (a bare Vert.x server that only
 * runs Vert.x's own OpenAPI {@link RequestValidator}: 204 when the contract accepts a request,
 * 400 with the reason when it does not), and, for every operation with a JSON body, that body's
 * example and where its schema lets it be broken.
 */
final class Contract implements AutoCloseable {

    /** A place in an example body and what the schema says about it. */
    enum Kind {
        /** a required property, to be removed */
        REQUIRED,
        /** an object, to be given a property its schema does not name */
        OBJECT,
        /** a value restricted to an enum (or a const) */
        ENUM,
        /** a string value */
        STRING,
        /** an integer value */
        INTEGER,
        /** a boolean value */
        BOOLEAN
    }

    /** {@code field} is the path the server should name ({@code envelope.priority}, {@code [0].subtype}). */
    record Site(Kind kind, String field, List<String> allowed, List<String> known) {
    }

    /** An operation with a JSON request body and an example of it. */
    record BodyOperation(String operationId, String method, String path, JsonNode example, List<Site> sites) {
    }

    final String document;
    final OpenAPIContract contract;
    final JsonObject raw;
    private final Vertx vertx = Vertx.vertx();
    private final HttpServer referee;

    Contract(String document) throws Exception {
        this.document = document;
        Map<String, Object> yaml = new Yaml().load(document);
        this.raw = new JsonObject(Json.MAPPER.writeValueAsString(yaml));
        this.contract = OpenAPIContract.from(vertx, forVertx(raw.copy())).await(30, TimeUnit.SECONDS);
        RequestValidator validator = RequestValidator.create(vertx, contract);
        this.referee = vertx.createHttpServer().requestHandler(req -> validator.validate(req).onComplete(ar -> {
            if (ar.succeeded()) {
                req.response().setStatusCode(204).end();
            } else {
                req.response().setStatusCode(400).end(String.valueOf(ar.cause().getMessage()));
            }
        })).listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
    }

    /**
     * Vert.x's OpenAPI module knows a fixed set of media types, and refuses a contract naming any
     * other; the referee gets a copy where the document's own type (application/yaml) reads
     * text/plain and the JSONL alternative of the batch (application/x-ndjson) is left out. The
     * JSON bodies, the only thing the referee judges, are untouched.
     */
    private static JsonObject forVertx(JsonObject doc) {
        JsonObject ops = doc.getJsonObject("paths");
        JsonObject yaml = ops.getJsonObject("/openapi.yaml").getJsonObject("get").getJsonObject("responses")
                .getJsonObject("200").getJsonObject("content");
        yaml.put("text/plain", yaml.remove("application/yaml"));
        ops.getJsonObject("/v1/broker/route:batch").getJsonObject("post").getJsonObject("requestBody")
                .getJsonObject("content").remove("application/x-ndjson");
        return doc;
    }

    int refereePort() {
        return referee.actualPort();
    }

    /** Every documented operation as {@code "POST /v1/fsm/instances/{id}/actions"}. */
    List<String> operations() {
        List<String> out = new ArrayList<>();
        for (Operation o : contract.operations()) {
            out.add(o.getHttpMethod().name() + " " + o.getOpenAPIPath());
        }
        return out;
    }

    /** The documented operations of {@code tag}, as {@link #operations()} names them. */
    java.util.Set<String> operationsTagged(String tag) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (Operation o : contract.operations()) {
            if (o.getTags().contains(tag)) {
                out.add(o.getHttpMethod().name() + " " + o.getOpenAPIPath());
            }
        }
        return out;
    }

    /** Operations whose JSON body has an example, with every site the schema lets a test break. */
    List<BodyOperation> bodyOperations() {
        List<BodyOperation> out = new ArrayList<>();
        JsonNode paths = tree(raw.getJsonObject("paths"));
        for (Iterator<Map.Entry<String, JsonNode>> p = paths.fields(); p.hasNext(); ) {
            Map.Entry<String, JsonNode> path = p.next();
            for (Iterator<Map.Entry<String, JsonNode>> m = path.getValue().fields(); m.hasNext(); ) {
                Map.Entry<String, JsonNode> method = m.next();
                JsonNode media = method.getValue().path("requestBody").path("content").path("application/json");
                if (media.has("example")) {
                    List<Site> sites = new ArrayList<>();
                    walk(media.get("example"), resolve(media.get("schema")), "", sites);
                    out.add(new BodyOperation(method.getValue().path("operationId").asText(),
                            method.getKey().toUpperCase(java.util.Locale.ROOT), path.getKey(), media.get("example"), sites));
                }
            }
        }
        return out;
    }

    private void walk(JsonNode value, JsonNode schema, String field, List<Site> sites) {
        if (value.isObject()) {
            JsonNode props = schema.path("properties");
            List<String> known = new ArrayList<>();
            props.fieldNames().forEachRemaining(known::add);
            sites.add(new Site(Kind.OBJECT, field, List.of(), known));
            schema.path("required").forEach(r -> {
                if (value.has(r.asText())) {
                    sites.add(new Site(Kind.REQUIRED, join(field, r.asText()), List.of(), List.of()));
                }
            });
            value.fields().forEachRemaining(e -> walk(e.getValue(), resolve(props.path(e.getKey())), join(field, e.getKey()), sites));
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                walk(value.get(i), resolve(schema.path("items")), field + "[" + i + "]", sites);
            }
        } else {
            List<String> allowed = allowed(schema);
            if (!allowed.isEmpty()) {
                sites.add(new Site(Kind.ENUM, field, allowed, List.of()));
            }
            String type = types(schema).stream().filter(t -> !t.equals("null")).findFirst().orElse("");
            switch (type) {
                case "string" -> sites.add(new Site(Kind.STRING, field, allowed, List.of()));
                case "integer" -> sites.add(new Site(Kind.INTEGER, field, allowed, List.of()));
                case "boolean" -> sites.add(new Site(Kind.BOOLEAN, field, allowed, List.of()));
                default -> { }
            }
        }
    }

    private static List<String> allowed(JsonNode schema) {
        List<String> out = new ArrayList<>();
        if (schema.has("const")) {
            out.add(schema.get("const").asText());
        }
        schema.path("enum").forEach(e -> {
            if (!e.isNull()) {
                out.add(e.asText());
            }
        });
        schema.path("anyOf").forEach(s -> s.path("enum").forEach(e -> out.add(e.asText())));
        return out;
    }

    private static List<String> types(JsonNode schema) {
        List<String> out = new ArrayList<>();
        JsonNode t = schema.path("type");
        if (t.isTextual()) {
            out.add(t.asText());
        } else {
            t.forEach(x -> out.add(x.asText()));
        }
        if (out.isEmpty() && schema.has("const")) {
            out.add("string");
        }
        return out;
    }

    /** Follows local {@code $ref}s ({@code #/components/schemas/X}). */
    JsonNode resolve(JsonNode schema) {
        JsonNode s = schema == null ? Json.object() : schema;
        while (s.has("$ref")) {
            s = tree(raw).at(s.get("$ref").asText().substring(1));
        }
        return s;
    }

    private static String join(String field, String name) {
        return field.isEmpty() ? name : field + "." + name;
    }

    private static JsonNode tree(JsonObject o) {
        try {
            return Json.parse(o.encode());
        } catch (io.signalman.json.InputException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body with {@code field} replaced by {@code value}, or removed when value is null. */
    static JsonNode with(JsonNode body, String field, JsonNode value) {
        JsonNode copy = body.deepCopy();
        List<String> steps = steps(field);
        JsonNode parent = copy;
        for (int i = 0; i < steps.size() - 1; i++) {
            String s = steps.get(i);
            parent = s.startsWith("[") ? parent.get(Integer.parseInt(s.substring(1, s.length() - 1))) : parent.get(s);
        }
        String last = steps.get(steps.size() - 1);
        if (last.startsWith("[")) {
            ((ArrayNode) parent).set(Integer.parseInt(last.substring(1, last.length() - 1)), value);
        } else if (value == null) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
        return copy;
    }

    /** The node at {@code field} ("" is the body itself). */
    static JsonNode at(JsonNode body, String field) {
        JsonNode n = body;
        for (String s : steps(field)) {
            n = s.startsWith("[") ? n.get(Integer.parseInt(s.substring(1, s.length() - 1))) : n.get(s);
        }
        return n;
    }

    private static List<String> steps(String field) {
        List<String> out = new ArrayList<>();
        for (String part : field.split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            int b = part.indexOf('[');
            if (b != 0) {
                out.add(b < 0 ? part : part.substring(0, b));
            }
            for (int i = Math.max(b, 0); b >= 0 && i < part.length(); ) {
                int end = part.indexOf(']', i);
                out.add(part.substring(i, end + 1));
                i = end + 1;
            }
        }
        return out;
    }

    @Override
    public void close() {
        vertx.close().await();
    }
}
