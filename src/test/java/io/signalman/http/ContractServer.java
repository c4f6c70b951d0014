package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real server and the contract's referee side by side, with the state the examples need: an FSM
 * instance and a handoff conversation for the paths with an {@code {id}}.
 */
final class ContractServer implements AutoCloseable {

    static final String TOKEN = "contract-test-token";
    static final String FSM_ID = "contract-fsm";
    static final String CONVERSATION_ID = "contract-c1";

    final Server server;
    final Contract contract;

    ContractServer(Path data) throws Exception {
        server = Server.start(TestBundles.seedServer().withData(data).withAdminToken(TOKEN));
        contract = new Contract(send(server.port(), "GET", "/openapi.yaml", null).body());
        send(server.port(), "POST", "/v1/fsm/instances", "{\"id\": \"" + FSM_ID + "\", \"machine\": \"review-flow\"}");
        send(server.port(), "POST", "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"" + CONVERSATION_ID + "\"}");
    }

    /** The documented path with its {@code {id}} filled in. */
    static String concrete(String path) {
        return path.replace("{id}", path.startsWith("/v1/fsm") ? FSM_ID : CONVERSATION_ID);
    }

    HttpResponse<String> toServer(String method, String path, JsonNode body) {
        return send(server.port(), method, concrete(path), Json.write(body));
    }

    HttpResponse<String> toReferee(String method, String path, JsonNode body) {
        return send(contract.refereePort(), method, concrete(path), Json.write(body));
    }

    static HttpResponse<String> send(int port, String method, String path, String body) {
        return sendAs(port, method, path, body, TOKEN);
    }

    /** A request with a JSON body (when not null) and a bearer token (when not null). */
    static HttpResponse<String> sendAs(int port, String method, String path, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("content-type", "application/json");
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return HttpCalls.CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        contract.close();
        server.close();
    }
}
