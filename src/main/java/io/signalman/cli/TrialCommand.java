package io.signalman.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman trial start|show|set|promote|abort}: a live trial, driven on a running server
 * through its {@code /v1/trials} endpoints with the admin token (the server checks every value;
 * this only builds the request). Prints the trial as the server answers it; exit 0 on success, 1
 * when the server refuses (its error printed), 2 on a usage error.
 */
final class TrialCommand {

    private static final Set<String> VALUED = Set.of("url", "admin-token", "draft", "mode", "percent", "stop", "note", "reason");
    private static final Set<String> BOOLEANS = Set.of("accept-golden-changes");

    private TrialCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, VALUED, BOOLEANS, env);
        List<String> pos = a.positional();
        if (pos.isEmpty()) {
            throw new Args.UsageException("trial takes start, show, set, promote or abort");
        }
        String what = pos.get(0);
        String method;
        String path;
        ObjectNode body = Json.object();
        switch (what) {
            case "start" -> {
                method = "POST";
                path = "/v1/trials";
                body.put("draft", required(a, "draft")).put("mode", required(a, "mode"));
                number(a, body);
                stop(a, body);
            }
            case "show", "set", "promote", "abort" -> {
                if (pos.size() != 2) {
                    throw new Args.UsageException("trial " + what + " takes the trial's id");
                }
                path = "/v1/trials/" + pos.get(1);
                method = switch (what) {
                    case "show" -> "GET";
                    case "set" -> "PATCH";
                    default -> "POST";
                };
                if (!"show".equals(what) && !"set".equals(what)) {
                    path += "/" + what;
                }
                if ("set".equals(what)) {
                    if (a.get("mode", null) != null) {
                        body.put("mode", a.get("mode", null));
                    }
                    number(a, body);
                    stop(a, body);
                } else if ("promote".equals(what)) {
                    body.put("note", required(a, "note")).put("accept_golden_changes", a.has("accept-golden-changes"));
                } else if ("abort".equals(what) && a.get("reason", null) != null) {
                    body.put("reason", a.get("reason", null));
                }
            }
            default -> throw new Args.UsageException("trial takes start, show, set, promote or abort, not \"" + what + "\"");
        }
        String url = a.get("url", "http://127.0.0.1:8080");
        String token = a.get("admin-token", null);
        if (token == null) {
            throw new Args.UsageException("trial needs the server's admin token: --admin-token T or SIGNALMAN_ADMIN_TOKEN");
        }
        return send(method, url, path, "GET".equals(method) ? null : body, token, out, err);
    }

    private static String required(Args a, String flag) throws Args.UsageException {
        String v = a.get(flag, null);
        if (v == null) {
            throw new Args.UsageException("--" + flag + " is required");
        }
        return v;
    }

    /** {@code --percent P}, sent as a number (the server checks its range). */
    private static void number(Args a, ObjectNode body) throws Args.UsageException {
        String p = a.get("percent", null);
        if (p == null) {
            return;
        }
        try {
            body.put("percent", Double.parseDouble(p.trim()));
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--percent must be a number from 0 to 100, not \"" + p + "\"");
        }
    }

    /** {@code --stop '{"max_divergence_rate": 0.01}'} (or {@code null}), sent as it is. */
    private static void stop(Args a, ObjectNode body) throws Args.UsageException {
        String s = a.get("stop", null);
        if (s == null) {
            return;
        }
        try {
            body.set("stop", Json.parse(s));
        } catch (InputException e) {
            throw new Args.UsageException("--stop must be JSON, as the stop of POST /v1/trials: " + e.getMessage());
        }
    }

    private static int send(String method, String url, String path, ObjectNode body, String token, PrintStream out,
                            PrintStream err) throws Args.UsageException {
        URI uri;
        try {
            uri = URI.create(url.replaceAll("/+$", "") + path);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException("--url is not a URL: " + e.getMessage());
        }
        HttpRequest.Builder r = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
                .header("authorization", "Bearer " + token).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        try {
            HttpResponse<String> res = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                    .send(r.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = res.body().isEmpty() ? Json.object() : Json.MAPPER.readTree(res.body());
            if (res.statusCode() / 100 != 2) {
                err.println("signalman trial: " + res.statusCode() + " " + json.path("error").asText("") + ": "
                        + json.path("message").asText(res.body()));
                if (json.has("details")) {
                    err.println(json.get("details").toPrettyString());
                }
                return 1;
            }
            out.println(json.toPrettyString());
            return 0;
        } catch (IOException e) {
            err.println("signalman trial: cannot reach " + uri + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }
}
