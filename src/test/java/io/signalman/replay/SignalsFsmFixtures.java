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

    /** Routes the signals of {@code script} in order, a line each: "AGENT KIND [PAYLOAD]", every one decided (200). */
    private static void routes(ScriptedRecording s, String script) throws Exception {
        for (String line : script.lines().toList()) {
            String[] signal = line.split(" ", 3);
            s.expect(200, SIGNALS, signal(signal[0], signal[1], signal.length > 2 ? signal[2] : null));
        }
    }

    private static void signals(ScriptedRecording s) throws Exception {
        routes(s, """
                reviewer user_message {"command":"/approve"}
                reviewer user_message {"text":"looks good"}
                reviewer user_message {"text":"over budget","budget_exhausted":true}
                reviewer custom:escalate
                reviewer custom:Stop
                reviewer tool_result {"ok":true}
                planner timer
                planner custom:deploy {"approved":true}
                planner custom:deploy {"approved":false}
                planner user_message {"text":"add a step"}
                summarizer user_message {"budget_exhausted":true}
                summarizer user_message {"text":"hello"}
                summarizer stop
                summarizer timer
                """);
        // Routes over the payload as a whole: a plain-text payload, an empty one, null, absent, an object
        routes(s, """
                notetaker user_message "buy milk"
                notetaker user_message ""
                notetaker user_message null
                notetaker user_message
                notetaker user_message {"text":"buy milk"}
                """);
        // The teller agent runs a transaction: its strategy routes outrank everything.
        instance(s, "clerk", "transaction", "");
        routes(s, """
                clerk timer
                clerk stop
                clerk user_message {"text":"idle, so not gated"}
                """);
        actions(s, "clerk", "200 begin");
        routes(s, """
                clerk user_message {"text":"mid-transaction"}
                clerk stop
                clerk timer
                """);
        // The reviewer itself runs a transaction: strategy salience 0 beats agent salience 1,000,000.
        instance(s, "reviewer", "transaction", "200 begin");
        routes(s, """
                reviewer user_message {"command":"/approve"}
                reviewer stop
                reviewer custom:Stop
                """);
    }
}
