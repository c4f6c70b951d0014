package io.signalman.dispatch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An independent, hand-written copy of seed 004's algorithm over the shipped rules, written as
 * the seed's own config would list them (selectors, in order). Tests compare the DRL pack with
 * it, so neither the rules nor a recording vouches for itself. Only the string primitives
 * ({@link GoText}, {@link Ids}) are shared; they have their own tests against the seed.
 *
 * @param rules        the seed dispatch rules, tried in order
 * @param agents       the agents known, in the order of the agent list
 * @param defaultAgent the agent a message no rule selects goes to
 * @param agentModels  the model an agent names for itself, when it names one
 * @param config       the dispatch config: the session dimensions, the identity links, and the models and threshold
 *                     of the scoring
 */
record SeedDispatcher(List<SeedRule> rules, List<String> agents, String defaultAgent, Map<String, String> agentModels,
                      DispatchConfig config) {

    /** A seed dispatch rule: its selector (null = unconstrained field), agent and dimension override. */
    record SeedRule(String name, String agent, List<String> dimensions, String channel, String account, String space,
                    String chat, String topic, String sender, Boolean mentioned) {
    }

    /** The shipped rules/dispatch/dispatch.drl, as the seed would configure it. */
    static final List<SeedRule> SHIPPED = List.of(
            new SeedRule("vip-sender", "concierge", List.of("sender"), null, null, null, null, null, "vip-alice", null),
            new SeedRule("support-group", "support", List.of(), "telegram", null, null, "group:-100123", null, null, null),
            new SeedRule("slack-mentions", "support", List.of(), "slack", null, "workspace:t001", null, null, null, true),
            new SeedRule("forum-release-topic", "release", List.of(), "telegram", null, null, "forum:-100777", "topic:42", null, null),
            new SeedRule("community-guild", "community", List.of("space", "chat"), "discord", null, "guild:g-community", null, null,
                    null, null),
            new SeedRule("billing-account", "billing", List.of(), "whatsapp", "billing", null, null, null, null, null));

    static SeedDispatcher of(DispatchReference ref) {
        Map<String, String> models = new LinkedHashMap<>();
        ref.agents().ids().forEach(id -> ref.agents().model(id).ifPresent(m -> models.put(id, m)));
        return new SeedDispatcher(SHIPPED, ref.agents().ids(), ref.agents().defaultAgent(), models, ref.config());
    }

    record Expected(String agent, String channel, String account, String matchedBy, List<String> dimensions,
                    String sessionKey, String model, boolean light, double score) {
    }

    Expected dispatch(InboundMessage m) {
        String channel = GoText.lower(GoText.trim(m.channel()));
        String account = Ids.account(m.account());
        String space = joined(m.space(), "space");
        String chat = joined(m.chat(), "direct");
        String topicId = GoText.trim(m.topic());
        String topic = topicId.isEmpty() ? "" : "topic:" + GoText.lower(topicId);
        String sender = sender(m.channel(), m.sender());
        SeedRule hit = null;
        for (SeedRule r : rules) {
            if (eq(r.channel(), channel) && eq(r.account(), account) && eq(r.space(), space) && eq(r.chat(), chat)
                    && eq(r.topic(), topic) && eq(r.sender(), sender)
                    && (r.mentioned() == null || r.mentioned() == m.isMentioned())) {
                hit = r;
                break;
            }
        }
        String agent = hit == null ? defaultAgent : pick(hit.agent());
        List<String> dims = dimensions(hit == null || hit.dimensions().isEmpty() ? config.dimensions() : hit.dimensions());
        Inbound view = new Inbound(channel, account, space, chat, topic, sender, m.isMentioned());
        String key = SessionKeys.of(agent, channel, account, new SessionPolicy(dims, Map.of()), view);
        double score = score(m.text(), m.history());
        boolean light = config.routingEnabled() && score < config.threshold();
        String model = light ? config.lightModel() : agentModels.getOrDefault(agent, config.heavyModel());
        return new Expected(agent, channel, account, hit == null ? "default" : "dispatch.rule:" + hit.name(), dims, key, model,
                light, score);
    }

    private static boolean eq(String want, String got) {
        return want == null || want.equals(got);
    }

    private static String joined(InboundMessage.Place p, String defaultType) {
        String id = p == null ? "" : GoText.trim(p.id());
        if (id.isEmpty()) {
            return "";
        }
        String type = GoText.lower(GoText.trim(p.type()));
        return (type.isEmpty() ? defaultType : type) + ":" + GoText.lower(id);
    }

    private String sender(String rawChannel, String rawSender) {
        String id = GoText.trim(rawSender);
        if (id.isEmpty()) {
            return "";
        }
        String raw = GoText.lower(id);
        List<String> candidates = new ArrayList<>(List.of(raw));
        String ch = GoText.lower(GoText.trim(rawChannel));
        if (!ch.isEmpty()) {
            candidates.add(ch + ":" + raw);
        }
        int colon = raw.indexOf(':');
        if (colon > 0 && colon < raw.length() - 1) {
            candidates.add(raw.substring(colon + 1));
        }
        for (Map.Entry<String, List<String>> e : config.identityLinks().asMap().entrySet()) {
            for (String linked : e.getValue()) {
                String l = GoText.lower(GoText.trim(linked));
                if (!l.isEmpty() && candidates.contains(l)) {
                    return GoText.lower(GoText.trim(e.getKey()));
                }
            }
        }
        return raw;
    }

    private String pick(String requested) {
        String id = Ids.agent(requested);
        return agents.isEmpty() || agents.contains(id) ? id : defaultAgent;
    }

    private static List<String> dimensions(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String d = GoText.lower(GoText.trim(n));
            if (List.of("space", "chat", "topic", "sender").contains(d) && !out.contains(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /** The seed's RuleClassifier, in doubles and in its own order, attachments short-circuiting. */
    static double score(String text, List<InboundMessage.Turn> history) {
        int total = text.codePointCount(0, text.length());
        int cjk = (int) text.codePoints().filter(c -> c >= 0x2E80 && c <= 0x9FFF || c >= 0xF900 && c <= 0xFAFF
                || c >= 0xAC00 && c <= 0xD7AF).count();
        int tokens = cjk + (total - cjk) / 4;
        int blocks = text.split("```", -1).length - 1;
        int calls = history.subList(Math.max(0, history.size() - 6), history.size()).stream().mapToInt(InboundMessage.Turn::calls).sum();
        String lower = GoText.lower(text);
        boolean media = List.of("data:image/", "data:audio/", "data:video/", ".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp",
                ".mp3", ".wav", ".ogg", ".m4a", ".flac", ".mp4", ".avi", ".mov", ".webm").stream().anyMatch(lower::contains);
        if (media) {
            return 1.0;
        }
        double s = 0;
        if (tokens > 200) {
            s += 0.35;
        } else if (tokens > 50) {
            s += 0.15;
        }
        if (blocks / 2 > 0) {
            s += 0.40;
        }
        if (calls > 3) {
            s += 0.25;
        } else if (calls > 0) {
            s += 0.10;
        }
        if (history.size() > 10) {
            s += 0.10;
        }
        return Math.min(s, 1.0);
    }
}
