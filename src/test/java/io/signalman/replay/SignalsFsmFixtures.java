package io.signalman.replay;

import io.signalman.TestBundles;
import java.nio.file.Path;
import java.util.Map;

/**
 * The golden history of the signals and fsm packs: every seed example, every rule, every kind of
 * refusal, recorded in one scripted session so that signal decisions see real FSM states.
 */
final class SignalsFsmFixtures {

    private static final String SIGNALS = "/v1/signals/route";

    private SignalsFsmFixtures() {
    }

    static void record(Path fixtures) throws Exception {
        try (ScriptedRecording s = new ScriptedRecording(TestBundles.LIVE_RULES)) {
            reviewFlow(s);
            transaction(s);
            signals(s);
            s.writeTo(Map.of("fsm", fixtures.resolve("fsm/history.jsonl"), "signals", fixtures.resolve("signals/history.jsonl")));
        }
    }

    private static String act(String action, String payload) {
        return "{\"action\":\"" + action + "\"" + (payload == null ? "" : ",\"payload\":" + payload) + "}";
    }

    private static String signal(String agent, String kind, String payload) {
        return "{\"agent\":\"" + agent + "\",\"signal\":{\"kind\":\"" + kind + "\"" + (payload == null ? "" : ",\"payload\":" + payload) + "}}";
    }

    /** Creates FSM instance {@code id} of {@code machine}, then sends it the actions of {@code script}. */
    private static void instance(ScriptedRecording s, String id, String machine, String script) throws Exception {
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"" + id + "\",\"machine\":\"" + machine + "\"}");
        actions(s, id, script);
    }

    /** Sends instance {@code id} the actions of {@code script} in order, a line each: "STATUS ACTION [PAYLOAD]", the status it must get. */
    private static void actions(ScriptedRecording s, String id, String script) throws Exception {
        for (String line : script.lines().toList()) {
            String[] step = line.split(" ", 3);
            s.expect(Integer.parseInt(step[0]), "/v1/fsm/instances/" + id + "/actions", act(step[1], step.length > 2 ? step[2] : null));
        }
    }

    private static void reviewFlow(ScriptedRecording s) throws Exception {
        instance(s, "review-1", "review-flow", """
                409 finish
                200 start
                200 review {"quality":0.3}
                409 review {"quality":0.9}
                200 restart
                200 review {"quality":0.7}
                409 start
                """);
        instance(s, "review-2", "review-flow", """
                200 start
                200 review
                200 restart {"note":"second pass"}
                200 review {"quality":"high"}
                200 restart
                200 finish
                """);
    }

    private static void transaction(ScriptedRecording s) throws Exception {
        instance(s, "teller", "transaction", """
                409 commit {"approved":true}
                200 begin
                409 commit {"approved":false}
                409 commit
                200 commit {"approved":true}
                200 begin
                200 abort
                """);
    }

    private static void signals(ScriptedRecording s) throws Exception {
        s.expect(200, SIGNALS, signal("reviewer", "user_message", "{\"command\":\"/approve\"}"));
        s.expect(200, SIGNALS, signal("reviewer", "user_message", "{\"text\":\"looks good\"}"));
        s.expect(200, SIGNALS, signal("reviewer", "user_message", "{\"text\":\"over budget\",\"budget_exhausted\":true}"));
        s.expect(200, SIGNALS, signal("reviewer", "custom:escalate", null));
        s.expect(200, SIGNALS, signal("reviewer", "custom:Stop", null));
        s.expect(200, SIGNALS, signal("reviewer", "tool_result", "{\"ok\":true}"));
        s.expect(200, SIGNALS, signal("planner", "timer", null));
        s.expect(200, SIGNALS, signal("planner", "custom:deploy", "{\"approved\":true}"));
        s.expect(200, SIGNALS, signal("planner", "custom:deploy", "{\"approved\":false}"));
        s.expect(200, SIGNALS, signal("planner", "user_message", "{\"text\":\"add a step\"}"));
        s.expect(200, SIGNALS, signal("summarizer", "user_message", "{\"budget_exhausted\":true}"));
        s.expect(200, SIGNALS, signal("summarizer", "user_message", "{\"text\":\"hello\"}"));
        s.expect(200, SIGNALS, signal("summarizer", "stop", null));
        s.expect(200, SIGNALS, signal("summarizer", "timer", null));
        // Routes over the payload as a whole: a plain-text payload, an empty one, null, absent, an object
        s.expect(200, SIGNALS, signal("notetaker", "user_message", "\"buy milk\""));
        s.expect(200, SIGNALS, signal("notetaker", "user_message", "\"\""));
        s.expect(200, SIGNALS, signal("notetaker", "user_message", "null"));
        s.expect(200, SIGNALS, signal("notetaker", "user_message", null));
        s.expect(200, SIGNALS, signal("notetaker", "user_message", "{\"text\":\"buy milk\"}"));
        // The teller agent runs a transaction: its strategy routes outrank everything.
        instance(s, "clerk", "transaction", "");
        s.expect(200, SIGNALS, signal("clerk", "timer", null));
        s.expect(200, SIGNALS, signal("clerk", "stop", null));
        s.expect(200, SIGNALS, signal("clerk", "user_message", "{\"text\":\"idle, so not gated\"}"));
        actions(s, "clerk", "200 begin");
        s.expect(200, SIGNALS, signal("clerk", "user_message", "{\"text\":\"mid-transaction\"}"));
        s.expect(200, SIGNALS, signal("clerk", "stop", null));
        s.expect(200, SIGNALS, signal("clerk", "timer", null));
        // The reviewer itself runs a transaction: strategy salience 0 beats agent salience 1,000,000.
        instance(s, "reviewer", "transaction", "200 begin");
        s.expect(200, SIGNALS, signal("reviewer", "user_message", "{\"command\":\"/approve\"}"));
        s.expect(200, SIGNALS, signal("reviewer", "stop", null));
        s.expect(200, SIGNALS, signal("reviewer", "custom:Stop", null));
    }
}
