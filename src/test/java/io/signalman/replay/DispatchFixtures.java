package io.signalman.replay;

import io.signalman.TestBundles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Records the dispatch pack's golden history through a real server (called by
 * {@link FixtureRecorder#main}, so {@code make fixtures} records every pack). Every dispatch rule,
 * every scoring rule and every example of seed 004 has a named message; a seeded sample covers
 * the rest of the vocabulary. {@code DispatchFixturesTest} checks each recorded decision against
 * the hand-written seed dispatcher, so a recording is never its own proof.
 */
final class DispatchFixtures {

    static final String ENDPOINT = "/v1/dispatch";

    private DispatchFixtures() {
    }

    /** Records only the dispatch history: {@code java ... io.signalman.replay.DispatchFixtures replay-fixtures}. */
    public static void main(String[] args) throws Exception {
        record(Path.of(args.length > 0 ? args[0] : "replay-fixtures"));
    }

    static void record(Path out) throws Exception {
        Path dir = out.resolve("dispatch");
        FixtureRecorder.record(TestBundles.LIVE_RULES, ENDPOINT, crafted(), seeded(200, 20261204L), dir.resolve("history.jsonl"));
        Path scenario = dir.resolve("billing-retired");
        Path copy = TestBundles.copyOfRules(TestBundles.LIVE_RULES, Files.createTempDirectory("signalman-billing-retired"));
        Files.copy(scenario.resolve("reference/dispatch/agents.json"), copy.resolve("dispatch/agents.json"),
                StandardCopyOption.REPLACE_EXISTING);
        FixtureRecorder.record(copy, ENDPOINT, billingRetired(), List.of(), scenario.resolve("history.jsonl"));
    }

    static String msg(String id, String fields) {
        return "{\"id\":\"" + id + "\"," + fields + "}";
    }

    static List<String> crafted() {
        return List.of(
                // seed 004's two examples
                msg("seed-support-group", "\"channel\":\"telegram\",\"chat\":{\"type\":\"group\",\"id\":\"-100123\"},\"sender\":\"U1\",\"message\":\"my order is late\""),
                msg("seed-slack-mentions", "\"channel\":\"slack\",\"space\":{\"type\":\"workspace\",\"id\":\"T001\"},\"chat\":{\"type\":\"channel\",\"id\":\"C42\"},\"sender\":\"U2\",\"mentioned\":true,\"message\":\"@bot help\""),
                msg("slack-t001-not-mentioned", "\"channel\":\"slack\",\"space\":{\"type\":\"workspace\",\"id\":\"T001\"},\"chat\":{\"type\":\"channel\",\"id\":\"C42\"},\"sender\":\"U2\",\"mentioned\":false,\"message\":\"chatter\""),
                msg("slack-other-workspace", "\"channel\":\"slack\",\"space\":{\"type\":\"workspace\",\"id\":\"T002\"},\"sender\":\"U3\",\"mentioned\":true,\"message\":\"hi\""),
                // normalization: case and Unicode whitespace
                msg("support-group-shouting", "\"channel\":\" TELEGRAM\\u00a0\",\"account\":\"\\u3000\",\"chat\":{\"type\":\" Group \",\"id\":\"\\u2003-100123\\n\"},\"sender\":\"U1\",\"message\":\"HELLO\""),
                msg("account-normalized", "\"channel\":\"telegram\",\"account\":\"  Main Bot!! \",\"chat\":{\"id\":\"99\"},\"sender\":\"U9\",\"message\":\"direct by default\""),
                // VIP through identity links, from three channels
                msg("vip-telegram", "\"channel\":\"telegram\",\"chat\":{\"type\":\"direct\",\"id\":\"555\"},\"sender\":\"555\",\"message\":\"hello\""),
                msg("vip-slack", "\"channel\":\"slack\",\"space\":{\"type\":\"workspace\",\"id\":\"T001\"},\"sender\":\"U777\",\"mentioned\":true,\"message\":\"hello from slack\""),
                msg("vip-email", "\"channel\":\"email\",\"sender\":\" Alice@Example.com \",\"message\":\"hello by mail\""),
                msg("vip-in-support-group", "\"channel\":\"telegram\",\"chat\":{\"type\":\"group\",\"id\":\"-100123\"},\"sender\":\"telegram:555\",\"message\":\"the VIP rule is tried first\""),
                msg("bob-linked", "\"channel\":\"discord\",\"sender\":\"bob#0001\",\"message\":\"linked but not a VIP\""),
                // forum topic
                msg("forum-release-topic", "\"channel\":\"telegram\",\"chat\":{\"type\":\"forum\",\"id\":\"-100777\"},\"topic\":\"42\",\"sender\":\"U5\",\"message\":\"when is the release?\""),
                msg("forum-other-topic", "\"channel\":\"telegram\",\"chat\":{\"type\":\"forum\",\"id\":\"-100777\"},\"topic\":\"43\",\"sender\":\"U5\",\"message\":\"off topic\""),
                // session dimensions overridden by a rule
                msg("community-guild", "\"channel\":\"discord\",\"space\":{\"type\":\"guild\",\"id\":\"G-Community\"},\"chat\":{\"type\":\"channel\",\"id\":\"general\"},\"sender\":\"someone\",\"message\":\"hi all\""),
                msg("community-guild-other-member", "\"channel\":\"discord\",\"space\":{\"type\":\"guild\",\"id\":\"g-community\"},\"chat\":{\"type\":\"channel\",\"id\":\"general\"},\"sender\":\"someone-else\",\"message\":\"hey\""),
                msg("billing-account", "\"channel\":\"whatsapp\",\"account\":\"Billing\",\"sender\":\"+491510000\",\"message\":\"where is my invoice\""),
                msg("default-no-rule", "\"channel\":\"line\",\"sender\":\"u-1\",\"message\":\"hi\""),
                // the scoring table, rule by rule
                msg("cjk-short", "\"channel\":\"telegram\",\"sender\":\"u-cjk\",\"message\":\"你好，请问今天的天气怎么样？\""),
                msg("cjk-medium", "\"channel\":\"telegram\",\"sender\":\"u-cjk\",\"message\":\"" + "我想了解一下这个系统".repeat(6) + "\""),
                msg("cjk-long", "\"channel\":\"telegram\",\"sender\":\"u-cjk\",\"message\":\"" + "사용자가 요청한 보고서를 작성해 주세요".repeat(12) + "\""),
                msg("latin-medium", "\"channel\":\"telegram\",\"sender\":\"u-2\",\"message\":\"" + "please summarise this ".repeat(12) + "\""),
                msg("latin-long", "\"channel\":\"telegram\",\"sender\":\"u-2\",\"message\":\"" + "a long and winding request ".repeat(32) + "\""),
                msg("code-block", "\"channel\":\"telegram\",\"sender\":\"u-3\",\"message\":\"why does this fail?\\n```python\\nprint(1/0)\\n```\""),
                msg("unclosed-fence", "\"channel\":\"telegram\",\"sender\":\"u-3\",\"message\":\"```just a typo\""),
                msg("attachment-data-uri", "\"channel\":\"telegram\",\"sender\":\"u-4\",\"message\":\"data:image/png;base64,iVBORw0KGgo=\""),
                msg("attachment-extension", "\"channel\":\"slack\",\"sender\":\"u-4\",\"message\":\"see Screenshot.JPEG\""),
                msg("tools-dense", "\"channel\":\"telegram\",\"sender\":\"u-5\",\"message\":\"go on\",\"history\":[{\"role\":\"user\"},{\"role\":\"assistant\",\"tool_calls\":2},{\"role\":\"tool\"},{\"role\":\"assistant\",\"tool_calls\":2},{\"role\":\"tool\"}]"),
                msg("tools-some", "\"channel\":\"telegram\",\"sender\":\"u-5\",\"message\":\"go on\",\"history\":[{\"role\":\"user\"},{\"role\":\"assistant\",\"tool_calls\":1},{\"role\":\"tool\"}]"),
                msg("tools-outside-window", "\"channel\":\"telegram\",\"sender\":\"u-5\",\"message\":\"go on\",\"history\":[{\"role\":\"assistant\",\"tool_calls\":9},{\"role\":\"user\"},{\"role\":\"assistant\"},{\"role\":\"user\"},{\"role\":\"assistant\"},{\"role\":\"user\"},{\"role\":\"assistant\"}]"),
                msg("deep-conversation", "\"channel\":\"telegram\",\"sender\":\"u-6\",\"message\":\"and then?\",\"history\":" + history(11, 0)),
                msg("at-threshold", "\"channel\":\"telegram\",\"sender\":\"u-6\",\"message\":\"" + "medium text ".repeat(20) + "\",\"history\":" + history(11, 1)),
                msg("everything-capped", "\"channel\":\"telegram\",\"sender\":\"u-7\",\"message\":\"" + "long ".repeat(200) + "```x``` photo.png\",\"history\":" + history(12, 1)));
    }

    /** Under an agents.json without billing: the billing rule still matches, the default agent answers. */
    static List<String> billingRetired() {
        return List.of(
                msg("unknown-agent-fallback", "\"channel\":\"whatsapp\",\"account\":\"billing\",\"sender\":\"+491510000\",\"message\":\"invoice?\""),
                msg("unknown-agent-fallback-code", "\"channel\":\"whatsapp\",\"account\":\"billing\",\"sender\":\"+491510001\",\"message\":\"```sql\\nselect 1\\n```\""),
                msg("retired-roster-default", "\"channel\":\"line\",\"sender\":\"u-1\",\"message\":\"hi\""));
    }

    static String history(int n, int toolCallsEach) {
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            turns.add(i % 2 == 0 ? "{\"role\":\"user\"}" : "{\"role\":\"assistant\",\"tool_calls\":" + toolCallsEach + "}");
        }
        return "[" + String.join(",", turns) + "]";
    }

    static final String[] CHANNELS = {"telegram", "Telegram", "slack", "discord", "whatsapp", "email", "line"};
    static final String[] SPACES = {"", "{\"type\":\"workspace\",\"id\":\"T001\"}", "{\"type\":\"guild\",\"id\":\"g-community\"}",
        "{\"id\":\"s1\"}"};
    static final String[] CHATS = {"", "{\"type\":\"group\",\"id\":\"-100123\"}", "{\"type\":\"forum\",\"id\":\"-100777\"}",
        "{\"id\":\"555\"}", "{\"type\":\"channel\",\"id\":\"general\"}"};
    static final String[] TOPICS = {"", "42", "43"};
    static final String[] SENDERS = {"U1", "555", "u777", "alice@example.com", "bob#0001", "stranger", ""};
    static final String[] TEXTS = {"hi", "hello there, how are you?", "medium text ".repeat(20), "long text ".repeat(90),
        "```go\\nfunc main() {}\\n```", "look at cat.gif", "你好世界", "日本語のテキスト".repeat(30)};

    /** A deterministic sample of the whole vocabulary (same seed, same history). */
    static List<String> seeded(int n, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder f = new StringBuilder("\"channel\":\"" + CHANNELS[r.nextInt(CHANNELS.length)] + "\"");
            String space = SPACES[r.nextInt(SPACES.length)];
            String chat = CHATS[r.nextInt(CHATS.length)];
            String topic = TOPICS[r.nextInt(TOPICS.length)];
            String sender = SENDERS[r.nextInt(SENDERS.length)];
            if (r.nextInt(4) == 0) {
                f.append(",\"account\":\"billing\"");
            }
            if (!space.isEmpty()) {
                f.append(",\"space\":").append(space);
            }
            if (!chat.isEmpty()) {
                f.append(",\"chat\":").append(chat);
            }
            if (!topic.isEmpty()) {
                f.append(",\"topic\":\"").append(topic).append('"');
            }
            if (!sender.isEmpty()) {
                f.append(",\"sender\":\"").append(sender).append('"');
            }
            f.append(",\"mentioned\":").append(r.nextBoolean());
            f.append(",\"message\":\"").append(TEXTS[r.nextInt(TEXTS.length)]).append('"');
            f.append(",\"history\":").append(history(r.nextInt(14), r.nextInt(3)));
            out.add(msg(String.format("d-%04d", i), f.toString()));
        }
        return out;
    }
}
