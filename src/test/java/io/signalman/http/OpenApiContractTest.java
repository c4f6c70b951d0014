package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import io.vertx.ext.web.Route;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * openapi.yaml against the running server. The strict parsers are the validator; these
 * tests and {@link OpenApiContractProperties} hold them to the document: the routes are the
 * documented operations, and Vert.x's own OpenAPI validator (the referee) agrees with the server
 * on what is accepted.
 */
class OpenApiContractTest {

    @TempDir
    static Path data;

    private static ContractServer s;

    @BeforeAll
    static void start() throws Exception {
        s = new ContractServer(data);
    }

    @AfterAll
    static void stop() {
        if (s != null) {
            s.close();
        }
    }

    @Test
    void theDocumentIsServedAsYamlAndIsAValidOpenApiContract() {
        HttpResponse<String> r = ContractServer.send(s.server.port(), "GET", "/openapi.yaml", null);

        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/yaml"));
        // Vert.x refuses to build a contract from a document that is not valid OpenAPI 3.
        assertEquals("3.1.0", s.contract.raw.getString("openapi"));
        assertFalse(s.contract.operations().isEmpty());
    }

    @Test
    void everyRouteOnTheRouterIsDocumentedAndEveryDocumentedOperationIsRouted() {
        // Given what the router serves, as "METHOD /path/{param}"
        Set<String> routed = new TreeSet<>();
        Set<String> workbench = new TreeSet<>();
        for (Route r : s.server.http().router().getRoutes()) {
            // A regex route is named by its regex, which here is a literal path (":batch" is no parameter).
            String path = r.getPath() != null ? r.getPath().replaceAll(":([A-Za-z_]+)", "{$1}") : r.getName();
            if (path == null) {
                continue; // the catch-all that hands every request its metrics; no endpoint of its own
            }
            if (path.startsWith("/workbench")) {
                // the analysts' pages and their own API (docs/workbench.md): the review flow's endpoints are documented
                if (r.methods() != null) {
                    r.methods().forEach(m -> workbench.add(m.name() + " " + path));
                }
                continue;
            }
            assertFalse(r.methods().isEmpty(), "a route for every method: " + path);
            r.methods().forEach(m -> routed.add(m.name() + " " + path));
        }
        Set<String> reviewFlow = s.contract.operationsTagged("workbench");
        assertEquals(Set.of("POST /workbench/api/drafts/{id}/request-review", "GET /workbench/api/drafts/{id}/diff",
                "POST /workbench/api/drafts/{id}/impact", "GET /workbench/api/inbox", "GET /workbench/api/live/file",
                "GET /workbench/api/events", "POST /workbench/api/try", "POST /workbench/api/activations/{seq}/emergency-revert"),
                reviewFlow);
        assertTrue(workbench.containsAll(reviewFlow), "documented but not routed: " + reviewFlow + " vs " + workbench);

        // Then the document has exactly those operations, and the bench's, which this server (started as
        // production starts, without --bench-endpoints) does not route
        Set<String> documented = new TreeSet<>(s.contract.operations());
        Set<String> bench = s.contract.operationsTagged("bench");
        assertEquals(Set.of("POST " + BenchEcho.ECHO), bench);
        documented.removeAll(bench);
        documented.removeAll(reviewFlow);
        assertEquals(routed, documented);
    }

    @Test
    void everyExampleBodyIsValidForTheRefereeAndAcceptedByTheServer() {
        for (Contract.BodyOperation op : s.contract.bodyOperations()) {
            HttpResponse<String> referee = s.toReferee(op.method(), op.path(), op.example());
            assertEquals(204, referee.statusCode(), op.operationId() + ": " + referee.body());

            HttpResponse<String> r = s.toServer(op.method(), op.path(), op.example());
            assertTrue(Set.of(200, 201, 409).contains(r.statusCode()), op.operationId() + " -> " + r.statusCode() + " " + r.body());
        }
    }

    @Test
    void everyOperationWithABodyHasAnExampleToTestItWith() {
        Set<String> withExamples = new TreeSet<>();
        s.contract.bodyOperations().forEach(op -> withExamples.add(op.operationId()));

        assertEquals(Set.of("routeBroker", "routeBrokerBatch", "routeSignal", "createFsmInstance", "restoreFsmInstance",
                "applyFsmAction", "dispatch", "createConversation", "reportTurn", "userInput", "addUser"), withExamples);
    }

    @Test
    void everyOperationNamesTheRoleItNeedsAndOnlyOpenOnesNeedNone() {
        Set<String> roles = Set.of("none", "viewer", "author", "approver", "operator", "admin");
        io.vertx.core.json.JsonObject paths = s.contract.raw.getJsonObject("paths");
        int operations = 0;
        for (String path : paths.fieldNames()) {
            io.vertx.core.json.JsonObject item = paths.getJsonObject(path);
            for (String method : item.fieldNames()) {
                if (method.equals("parameters")) {
                    continue;
                }
                io.vertx.core.json.JsonObject op = item.getJsonObject(method);
                String role = op.getString("x-signalman-role");
                assertTrue(roles.contains(role), method + " " + path + " names no role: " + role);
                boolean open = op.getJsonArray("security").isEmpty();
                assertEquals(open, role.equals("none"), method + " " + path + ": a role needs a token, and only a role does");
                operations++;
            }
        }
        assertEquals(s.contract.operations().size(), operations);
    }

    @Test
    void aRefusedBodyIsAnErrorAsTheDocumentDescribesIt() throws Exception {
        JsonNode body = Json.parse("{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"urgent\"},"
                + " \"type\": \"event\", \"subtype\": \"trade.executed\"}");

        HttpResponse<String> r = s.toServer("POST", "/v1/broker/route", body);

        assertEquals(400, r.statusCode());
        JsonNode error = Json.parse(r.body());
        assertEquals("invalid_input", error.get("error").asText());
        assertNotEquals("", error.get("message").asText());
        assertEquals("envelope.priority", error.at("/details/field").asText());
        assertNotEquals(204, s.toReferee("POST", "/v1/broker/route", body).statusCode());
    }

    @Test
    void theDispatchDecisionHasExactlyTheFieldsItsSchemaDocumentsWithItsSessionScope() throws Exception {
        JsonNode body = Json.parse("{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"},"
                + " \"topic\": \"42\", \"sender\": \"U1\", \"message\": \"hi\"}");

        JsonNode d = Json.parse(s.toServer("POST", "/v1/dispatch", body).body());

        io.vertx.core.json.JsonObject schemas = s.contract.raw.getJsonObject("components").getJsonObject("schemas");
        io.vertx.core.json.JsonObject own = schemas.getJsonObject("DispatchDecision").getJsonArray("allOf").getJsonObject(1);
        Set<String> documented = new TreeSet<>(own.getJsonObject("properties").fieldNames());
        documented.addAll(schemas.getJsonObject("DecisionMeta").getJsonObject("properties").fieldNames());
        Set<String> answered = new TreeSet<>();
        d.fieldNames().forEachRemaining(answered::add);
        assertTrue(documented.containsAll(answered), "undocumented fields: " + answered + " vs " + documented);
        own.getJsonArray("required").forEach(f -> assertTrue(d.has((String) f), f + " is required: " + d));

        io.vertx.core.json.JsonObject scope = own.getJsonObject("properties").getJsonObject("session_scope");
        d.get("session_scope").fieldNames().forEachRemaining(f ->
                assertTrue(scope.getJsonObject("properties").containsKey(f), "undocumented session_scope." + f));
        scope.getJsonArray("required").forEach(f -> assertTrue(d.get("session_scope").has((String) f), "session_scope." + f));
    }
}
