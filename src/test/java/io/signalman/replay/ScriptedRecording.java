package io.signalman.replay;

import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Records a scripted session against a real server and writes its decision log split by pack,
 * for histories whose decisions depend on state (an FSM action needs the instance created and
 * moved first; a signal's strategy tier needs the agent's FSM state).
 */
final class ScriptedRecording implements AutoCloseable {

    private final Path data;
    private final Server server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    ScriptedRecording(Path rules) throws Exception {
        data = Files.createTempDirectory("signalman-script");
        // No gate: a recording is made after a change, before the history is accepted.
        server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withData(data)
                .withFixtures(data.resolve("no-fixtures")));
    }

    /** Posts a body and returns the status; the script decides which statuses it expects. */
    int post(String path, String body) throws Exception {
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        return res.statusCode();
    }

    /** Posts and fails unless the status is the expected one. */
    void expect(int status, String path, String body) throws Exception {
        int got = post(path, body);
        if (got != status) {
            throw new IllegalStateException(path + " " + body + ": expected " + status + ", got " + got);
        }
    }

    /** Stops the server and writes each pack's records to {@code targets.get(pack)}. */
    void writeTo(Map<String, Path> targets) throws Exception {
        close();
        Map<String, List<String>> byPack = new LinkedHashMap<>();
        try (Stream<Path> logs = Files.list(data.resolve("decisions"))) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(log)) {
                    String pack = io.signalman.json.Json.parse(line).get("pack").asText();
                    byPack.computeIfAbsent(pack, k -> new ArrayList<>()).add(line);
                }
            }
        }
        for (Map.Entry<String, Path> t : targets.entrySet()) {
            List<String> lines = byPack.getOrDefault(t.getKey(), List.of());
            Files.createDirectories(t.getValue().getParent());
            Files.writeString(t.getValue(), String.join("\n", lines) + "\n");
            System.out.println("recorded " + lines.size() + " " + t.getKey() + " decisions into " + t.getValue());
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
