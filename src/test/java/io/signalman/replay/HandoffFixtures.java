package io.signalman.replay;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * Records the handoff pack's golden history through a real server: scripted conversations that
 * exercise every shipped handoff rule and every kind of next step (rerun, agent, parallel,
 * terminate, pause, end, end at the limit). Called from {@link FixtureRecorder#main}.
 */
final class HandoffFixtures {

    private HandoffFixtures() {
    }

    /** One step of a script: a turn, or user input when {@code agent} is null. */
    record Say(String agent, String response, int tools) {
    }

    static Say say(String agent, String response) {
        return new Say(agent, response, 0);
    }

    static final List<Script> SCRIPTS = List.of(
            new Script("exam-full", "exam", List.of(say("teacher", "Question 1: 2+2? [QUESTION]"),
                    say("student", "It is 4. [ANSWER]"), say("reporter", "Noted. [OK]"),
                    say("teacher", "Correct."), say("reporter", "[ok]"),
                    say("teacher", "Question 2 [  question ]"), new Say("student", "let me think", 1),
                    say("reporter", "[OK]"), say("student", "[Answer] 9"),
                    say("teacher", "Done. [END_EXAM]"), say("reporter", "Score 2/2. [DONE]"))),
            new Script("exam-vietnamese", "exam", List.of(say("teacher", "Hết giờ! [ KẾT  THÚC  THI ]"),
                    say("reporter", "[OK] noted, and [DONE]"))),
            new Script("exam-tools", "exam", List.of(new Say("teacher", "[QUESTION]", 2), say("teacher", "plain"),
                    say("student", "no signal here"), say("teacher", "still plain"), say("student", "[ DONE ] is not mine"))),
            // A panel with no next_agent and no member's route falls through to the teacher's default handoff
            new Script("exam-panel-default", "exam", List.of(say("teacher", "Question 3 [QUESTION]"),
                    say("student", "I do not know."), say("reporter", "Nothing to note."))),
            // A bracketed span over 100 UTF-8 bytes never matches: the default handoff applies
            new Script("exam-long-span", "exam", List.of(say("teacher", "[ question" + " ".repeat(91) + "]"))),
            new Script("support-default", "support", List.of(say("triage", "Let me look."),
                    say("billing", "Refund issued."), say("closer", "Anything else?"))),
            new Script("support-pause", "support", List.of(say("triage", "[tech]"),
                    say("tech", "Please send the logs."), new Say(null, null, 0),
                    say("tech", "Found it. [FIXED]"), say("closer", "All set. [COMPLETE]"))),
            new Script("support-second-opinion", "support", List.of(say("triage", "[SECOND  OPINION]"),
                    say("tech", "Looks like a bug."), say("billing", "No charge issue."), say("closer", "bye"))),
            new Script("support-resolved", "support", List.of(say("triage", "[BILLING]"),
                    say("billing", "Refunded. [RESOLVED]"))),
            new Script("support-limit", "support", List.of(say("triage", "[TECH]"), say("tech", "[TRIAGE]"),
                    say("triage", "[TECH]"), say("tech", "[TRIAGE]"), say("triage", "[TECH]"), new Say(null, null, 0),
                    say("triage", "[TECH] again"))));

    /** A conversation to play: its id, crew and steps. */
    record Script(String id, String crew, List<Say> steps) {
    }

    static void record(Path rules, Path target) throws Exception {
        Path data = Files.createTempDirectory("signalman-record-handoff");
        int n = 0;
        // No gate: a recording is made after a change, before the history is accepted.
        try (Server server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withData(data)
                .withFixtures(data.resolve("no-fixtures")))) {
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port() + "/v1/handoff/conversations";
            for (Script s : SCRIPTS) {
                post(http, base, "{\"crew\":\"" + s.crew() + "\",\"id\":\"" + s.id() + "\"}", 201);
                for (Say say : s.steps()) {
                    if (say.agent() == null) {
                        post(http, base + "/" + s.id() + "/user-input", "{}", 200);
                        continue;
                    }
                    String body = io.signalman.json.Json.write(io.signalman.json.Json.object().put("agent", say.agent())
                            .put("response", say.response()).put("tool_calls", say.tools()));
                    post(http, base + "/" + s.id() + "/turns", body, 200);
                    n++;
                }
            }
        }
        Files.createDirectories(target.getParent());
        try (Stream<Path> logs = Files.list(data.resolve("decisions"))) {
            Path log = logs.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
            Files.copy(log, target, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println("recorded " + n + " handoff decisions into " + target);
    }

    private static void post(HttpClient http, String url, String body, int want) throws Exception {
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() != want) {
            throw new IllegalStateException(res.statusCode() + " for " + url + " " + body + ": " + res.body());
        }
    }

    /** Records into {@code replay-fixtures/handoff/history.jsonl} under the shipped rules. */
    static void recordInto(Path out) throws Exception {
        record(TestBundles.LIVE_RULES, out.resolve("handoff/history.jsonl"));
    }

    /** Records the handoff history alone (FixtureRecorder records every pack's). */
    public static void main(String[] args) throws Exception {
        recordInto(Path.of(args.length > 0 ? args[0] : "replay-fixtures"));
    }
}
