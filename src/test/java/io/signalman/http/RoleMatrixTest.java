package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.signalman.people.HashCost;
import io.signalman.people.PeopleConfig;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole role matrix through the real server: each role (and the bootstrap admin token)
 * against each endpoint that changes something, from one table. Allowed is anything but 401 and
 * 403 (the requests name drafts and users that do not exist, so that an allowed one changes
 * little: 400 or 404 is the answer); forbidden is 403 naming the role needed. The table must
 * hold every route the router serves that is not a plain read, so a new endpoint without a role
 * here fails {@link #theTableHoldsEveryWriteTheServerRoutes}.
 */
class RoleMatrixTest {

    /** Who may call each write; {@link Optional#empty()}: a service call, open to any client (decisions, turns). */
    static final Map<String, Optional<Role>> RIGHTS = new TreeMap<>(Map.ofEntries(
            Map.entry("POST /v1/rules/reload", Optional.of(Role.OPERATOR)),
            Map.entry("PUT /v1/fsm/instances/{id}", Optional.of(Role.OPERATOR)),
            Map.entry("GET /v1/admin/users", Optional.of(Role.ADMIN)),
            Map.entry("POST /v1/admin/users", Optional.of(Role.ADMIN)),
            Map.entry("DELETE /v1/admin/users/{name}", Optional.of(Role.ADMIN)),
            Map.entry("POST /v1/admin/users/{name}/rotate", Optional.of(Role.ADMIN)),
            Map.entry("POST /workbench/api/drafts", Optional.of(Role.AUTHOR)),
            Map.entry("PUT /workbench/api/drafts/{id}/file", Optional.of(Role.AUTHOR)),
            Map.entry("DELETE /workbench/api/drafts/{id}/file", Optional.of(Role.AUTHOR)),
            Map.entry("DELETE /workbench/api/drafts/{id}", Optional.of(Role.AUTHOR)),
            Map.entry("POST /workbench/api/drafts/{id}/rebase", Optional.of(Role.AUTHOR)),
            Map.entry("POST /workbench/api/drafts/{id}/impact", Optional.of(Role.VIEWER)),
            Map.entry("POST /workbench/api/activations/{seq}/revert", Optional.of(Role.AUTHOR)),
            Map.entry("POST /workbench/api/drafts/{id}/request-review", Optional.of(Role.AUTHOR)),
            Map.entry("POST /workbench/api/drafts/{id}/approve", Optional.of(Role.APPROVER)),
            Map.entry("POST /workbench/api/drafts/{id}/reject", Optional.of(Role.APPROVER)),
            Map.entry("POST /workbench/api/drafts/{id}/activate", Optional.of(Role.OPERATOR)),
            Map.entry("POST /workbench/api/rollback", Optional.of(Role.OPERATOR)),
            Map.entry("POST /workbench/api/activations/{seq}/emergency-revert", Optional.of(Role.OPERATOR)),
            Map.entry("POST /v1/trials", Optional.of(Role.OPERATOR)),
            Map.entry("PATCH /v1/trials/{id}", Optional.of(Role.OPERATOR)),
            Map.entry("POST /v1/trials/{id}/promote", Optional.of(Role.OPERATOR)),
            Map.entry("POST /v1/trials/{id}/abort", Optional.of(Role.OPERATOR)),
            Map.entry("GET /v1/trials", Optional.of(Role.VIEWER)),
            Map.entry("GET /v1/trials/{id}", Optional.of(Role.VIEWER)),
            // Reads of the workbench that compute (no role beyond reading): a try changes nothing.
            Map.entry("POST /workbench/api/try", Optional.empty()),
            Map.entry("POST /v1/broker/route", Optional.empty()),
            Map.entry("POST /v1/broker/route:batch", Optional.empty()),
            Map.entry("POST /v1/signals/route", Optional.empty()),
            Map.entry("POST /v1/fsm/instances", Optional.empty()),
            Map.entry("POST /v1/fsm/instances/{id}/actions", Optional.empty()),
            Map.entry("POST /v1/dispatch", Optional.empty()),
            Map.entry("POST /v1/handoff/conversations", Optional.empty()),
            Map.entry("POST /v1/handoff/conversations/{id}/turns", Optional.empty()),
            Map.entry("POST /v1/handoff/conversations/{id}/user-input", Optional.empty())));

    private static final HashCost CHEAP = new HashCost(64, 1, 1);
    private static final String ADMIN_TOKEN = "role-matrix-admin-token";

    @TempDir
    static Path data;
    private static Server server;
    /** A token per role: a user holding that role alone, and the bootstrap admin. */
    private static final Map<String, String> TOKENS = new LinkedHashMap<>();
    private static final Map<String, Set<Role>> ROLES = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = Server.start(TestBundles.seedServer().withData(data).withAdminToken(ADMIN_TOKEN)
                .withPeople(PeopleConfig.defaults().withHashCost(CHEAP).withFailuresPerMinute(1000)));
        Principal admin = Principal.bootstrap("admin");
        for (Role r : Role.values()) {
            String name = "user-" + r.wire();
            TOKENS.put(name, server.people().addUser(name, EnumSet.of(r), admin).token());
            ROLES.put(name, EnumSet.of(r));
        }
        TOKENS.put("admin", ADMIN_TOKEN);
        ROLES.put("admin", EnumSet.allOf(Role.class));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theTableHoldsEveryWriteTheServerRoutes() {
        Set<String> writes = new TreeSet<>();
        for (Route r : server.http().router().getRoutes()) {
            String path = r.getPath() != null ? r.getPath().replaceAll(":([A-Za-z_]+)", "{$1}") : r.getName();
            if (path == null || r.methods() == null || r.methods().isEmpty()) {
                continue;
            }
            for (HttpMethod m : r.methods()) {
                if (m != HttpMethod.GET || RIGHTS.containsKey("GET " + path)) {
                    writes.add(m.name() + " " + path);
                }
            }
        }
        assertEquals(new TreeSet<>(RIGHTS.keySet()), writes, "every write names the role it needs, here and in the gate");
    }

    @Test
    void eachRoleMayDoWhatItsRoleAllowsAndIsRefusedTheRest() throws Exception {
        for (Map.Entry<String, Optional<Role>> e : RIGHTS.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            Role needed = e.getValue().get();
            for (Map.Entry<String, String> who : TOKENS.entrySet()) {
                // Every role reads what a viewer reads; admin holds every role.
                boolean allowed = needed == Role.VIEWER || ROLES.get(who.getKey()).contains(needed)
                        || ROLES.get(who.getKey()).contains(Role.ADMIN);
                HttpResponse<String> r = call(e.getKey(), who.getValue());
                String what = who.getKey() + " " + e.getKey() + " -> " + r.statusCode() + " " + r.body();
                assertFalse(r.body().contains(who.getValue()), "no answer holds the token: " + what);
                if (allowed) {
                    assertNotEquals(403, r.statusCode(), what);
                    assertNotEquals(401, r.statusCode(), what);
                    assertTrue(r.statusCode() < 500, what);
                } else {
                    assertEquals(403, r.statusCode(), what);
                    JsonNode err = Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
                    assertEquals("forbidden", err.get("error").asText(), what);
                    assertEquals(needed.wire(), err.get("details").get("needs_role").asText(), what);
                }
            }
        }
    }

    @Test
    void everyGatedEndpointAsksForATokenAndRefusesAWrongOneWithoutSayingWhy() throws Exception {
        for (Map.Entry<String, Optional<Role>> e : RIGHTS.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            HttpResponse<String> none = call(e.getKey(), null);
            assertEquals(401, none.statusCode(), e.getKey() + " " + none.body());
            assertEquals("Bearer", none.headers().firstValue("www-authenticate").orElse(""), e.getKey());
            String wrong = "smu.0123456789abcdef01234567.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
            HttpResponse<String> bad = call(e.getKey(), wrong);
            assertEquals(403, bad.statusCode(), e.getKey() + " " + bad.body());
            assertFalse(bad.body().contains(wrong) || bad.body().contains("AAAAAAAA"), bad.body());
        }
    }

    @Test
    void everyRoleReadsWhatAViewerReads() throws Exception {
        for (Map.Entry<String, String> who : TOKENS.entrySet()) {
            for (String read : new String[] {"/workbench/api/overview", "/workbench/api/drafts", "/workbench/api/activations"}) {
                HttpResponse<String> r = send("GET", read, null, who.getValue());
                assertEquals(200, r.statusCode(), who.getKey() + " GET " + read + " " + r.body());
            }
        }
    }

    @Test
    void failedAuthenticationsAreCountedInTheMetricsByReason() throws Exception {
        send("POST", "/v1/rules/reload", null, "not-a-token-of-anyone");
        String metrics = send("GET", "/metrics", null, null).body();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("signalman_auth_failures_total{reason=\"unknown_token\"}")
                && Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) >= 1), metrics);
        assertTrue(metrics.contains("signalman_auth_throttled_total"), "the refusals for too many failures are counted too");
        assertFalse(metrics.contains("not-a-token-of-anyone"));
    }

    /** One request to a table entry: its parameters name nothing that exists, its body is an empty object. */
    private static HttpResponse<String> call(String entry, String token) throws Exception {
        String method = entry.substring(0, entry.indexOf(' '));
        String path = entry.substring(entry.indexOf(' ') + 1).replace("{id}", "01NOSUCHDRAFT00000000000000")
                .replace("{name}", "nobody-here").replace("{seq}", "999999");
        String body = method.equals("DELETE") ? null : "{}";
        return send(method, path, body, token);
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) {
        return HttpCalls.send("http://127.0.0.1:" + server.port(), method, path, body, token);
    }
}
