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

    private static void reviewFlow(ScriptedRecording s) throws Exception {
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"review-1\",\"machine\":\"review-flow\"}");
        String a = "/v1/fsm/instances/review-1/actions";
        s.expect(409, a, act("finish", null));
        s.expect(200, a, act("start", null));
        s.expect(200, a, act("review", "{\"quality\":0.3}"));
        s.expect(409, a, act("review", "{\"quality\":0.9}"));
        s.expect(200, a, act("restart", null));
        s.expect(200, a, act("review", "{\"quality\":0.7}"));
        s.expect(409, a, act("start", null));
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"review-2\",\"machine\":\"review-flow\"}");
        String b = "/v1/fsm/instances/review-2/actions";
        s.expect(200, b, act("start", null));
        s.expect(200, b, act("review", null));
        s.expect(200, b, act("restart", "{\"note\":\"second pass\"}"));
        s.expect(200, b, act("review", "{\"quality\":\"high\"}"));
        s.expect(200, b, act("restart", null));
        s.expect(200, b, act("finish", null));
    }

    private static void transaction(ScriptedRecording s) throws Exception {
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"teller\",\"machine\":\"transaction\"}");
        String a = "/v1/fsm/instances/teller/actions";
        s.expect(409, a, act("commit", "{\"approved\":true}"));
        s.expect(200, a, act("begin", null));
        s.expect(409, a, act("commit", "{\"approved\":false}"));
        s.expect(409, a, act("commit", null));
        s.expect(200, a, act("commit", "{\"approved\":true}"));
        s.expect(200, a, act("begin", null));
        s.expect(200, a, act("abort", null));
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
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"clerk\",\"machine\":\"transaction\"}");
        s.expect(200, SIGNALS, signal("clerk", "timer", null));
        s.expect(200, SIGNALS, signal("clerk", "stop", null));
        s.expect(200, SIGNALS, signal("clerk", "user_message", "{\"text\":\"idle, so not gated\"}"));
        s.expect(200, "/v1/fsm/instances/clerk/actions", act("begin", null));
        s.expect(200, SIGNALS, signal("clerk", "user_message", "{\"text\":\"mid-transaction\"}"));
        s.expect(200, SIGNALS, signal("clerk", "stop", null));
        s.expect(200, SIGNALS, signal("clerk", "timer", null));
        // The reviewer itself runs a transaction: strategy salience 0 beats agent salience 1,000,000.
        s.expect(201, "/v1/fsm/instances", "{\"id\":\"reviewer\",\"machine\":\"transaction\"}");
        s.expect(200, "/v1/fsm/instances/reviewer/actions", act("begin", null));
        s.expect(200, SIGNALS, signal("reviewer", "user_message", "{\"command\":\"/approve\"}"));
        s.expect(200, SIGNALS, signal("reviewer", "stop", null));
        s.expect(200, SIGNALS, signal("reviewer", "custom:Stop", null));
    }
}
