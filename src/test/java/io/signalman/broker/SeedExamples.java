package io.signalman.broker;

import java.util.List;

/**
 * The seed's broker examples (seed 003): a message and the whole decision the shipped rules make
 * for it. {@link BrokerPackTest} decides them in process, {@code HttpApiTest} over HTTP.
 */
public final class SeedExamples {

    /**
     * A message (its sender, priority, type and subtype), the rule that decides it, and the whole
     * decision: the recipients, the fan-out, whether it is stored, the priority it is raised or
     * lowered to ({@code null}: none), and whether it was turned into an escalation.
     */
    public record Example(String why, String from, String priority, String type, String subtype, String rule,
                          RouteDecision decision) {

        public BrokerMessage message() {
            return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
        }

        /** The message as a client sends it. */
        public String json() {
            return "{\"envelope\": {\"from_agent\": \"" + from + "\", \"priority\": \"" + priority + "\"}, "
                    + "\"type\": \"" + type + "\", \"subtype\": \"" + subtype + "\"}";
        }

        @Override
        public String toString() {
            return why;
        }
    }

    private static final String CRITICAL = "critical messages go to openclaw and knox";
    private static final String ESCALATION = "escalations go to the sender's manager";
    private static final String TRADE = "trade messages go to VP Trading";
    private static final String EVERYTHING_ELSE = "everything else goes to the sender's manager";

    public static final List<Example> ALL = List.of(
            new Example("a critical message goes to openclaw and knox, tells mission-control and sentinel, and is stored",
                    "foresight", "critical", "event", "trade.failed", CRITICAL,
                    decision(List.of("openclaw", "knox"), List.of("mission-control", "sentinel"), true, null, false)),
            new Example("a critical message skips the authority check", "tool-smith", "critical", "event", "trade.executed", CRITICAL,
                    decision(List.of("openclaw", "knox"), List.of("mission-control", "sentinel"), true, null, false)),
            new Example("tool-smith, whose card allows only tool.*, sending a trade execution is escalated to its manager",
                    "tool-smith", "normal", "event", "trade.executed",
                    "messages outside the sender's authority are escalated to the sender's manager",
                    decision(List.of("sr-director-tooling"), List.of("mission-control"), true, "high", true)),
            new Example("an escalation from foresight goes to VP Trading at high priority and is stored",
                    "foresight", "normal", "escalation", "trade.halted", ESCALATION,
                    decision(List.of("vp-trading"), List.of("mission-control"), true, "high", false)),
            new Example("an escalation from the InDecision Engine goes to the Sr. Director of Signals",
                    "indecision-engine", "high", "escalation", "signal.stale", ESCALATION,
                    decision(List.of("sr-director-signals"), List.of("mission-control"), true, "high", false)),
            new Example("an executed trade goes to VP Trading, fans out to the CFO and mission-control, and is stored",
                    "foresight", "normal", "event", "trade.executed", TRADE,
                    decision(List.of("vp-trading"), List.of("cfo", "mission-control"), true, null, false)),
            new Example("a completed trade is stored too", "foresight", "normal", "event", "trade.completed", TRADE,
                    decision(List.of("vp-trading"), List.of("cfo", "mission-control"), true, null, false)),
            new Example("a trade entry is routed like a trade but not stored", "foresight", "normal", "event", "trade.entry", TRADE,
                    decision(List.of("vp-trading"), List.of("cfo", "mission-control"), false, null, false)),
            new Example("a trade report is a trade message, not a report", "foresight", "normal", "event", "trade.report", TRADE,
                    decision(List.of("vp-trading"), List.of("cfo", "mission-control"), false, null, false)),
            new Example("an InDecision Engine signal reaches every trading agent of the registry at high priority",
                    "indecision-engine", "normal", "event", "signal.published", "InDecision Engine signals go to every trading agent",
                    decision(List.of("foresight", "sports-agent", "political-agent", "perpetuals-bot"), List.of(), false, "high", false)),
            new Example("an offline service goes to VP Engineering and also alerts openclaw",
                    "sentinel", "normal", "event", "service.offline", "offline services go to VP Engineering and alert openclaw",
                    decision(List.of("vp-engineering"), List.of("sentinel", "mission-control", "openclaw"), false, null, false)),
            new Example("other service messages go to VP Engineering without alerting openclaw",
                    "sentinel", "normal", "event", "service.degraded", "service messages go to VP Engineering",
                    decision(List.of("vp-engineering"), List.of("sentinel", "mission-control"), false, null, false)),
            new Example("published content goes to VP Content and is stored",
                    "content-writer", "normal", "event", "content.published", "content messages go to VP Content",
                    decision(List.of("vp-content"), List.of("mission-control"), true, null, false)),
            new Example("a content draft goes to VP Content and is not stored",
                    "content-writer", "normal", "event", "content.draft", "content messages go to VP Content",
                    decision(List.of("vp-content"), List.of("mission-control"), false, null, false)),
            new Example("a memory commit goes to the memory service only, with no fan-out",
                    "memory-service", "normal", "event", "memory.committed", "memory commits go to the memory service only",
                    decision(List.of("memory-service"), List.of(), false, null, false)),
            new Example("a memory commit from a trading agent goes to the memory service only too",
                    "foresight", "normal", "event", "memory.committed", "memory commits go to the memory service only",
                    decision(List.of("memory-service"), List.of(), false, null, false)),
            new Example("a P&L report from foresight goes to VP Trading and the advisory system",
                    "foresight", "normal", "event", "pnl.report", "reports go to the sender's manager and the advisory system",
                    decision(List.of("vp-trading"), List.of("advisory-system"), false, null, false)),
            new Example("tool installed goes to the Sr. Director of Tooling at low priority",
                    "tool-smith", "normal", "event", "tool.installed", "tool messages go to the Sr. Director of Tooling at low priority",
                    decision(List.of("sr-director-tooling"), List.of(), false, "low", false)),
            new Example("a message from an unknown sender falls back to openclaw and mission-control",
                    "stranger", "low", "event", "misc.hello", EVERYTHING_ELSE,
                    decision(List.of("openclaw"), List.of("mission-control"), false, null, false)),
            new Example("the founder reports to no one, so the default goes to openclaw",
                    "knox", "normal", "event", "misc.hello", EVERYTHING_ELSE,
                    decision(List.of("openclaw"), List.of("mission-control"), false, null, false)));

    private SeedExamples() {
    }

    private static RouteDecision decision(List<String> primary, List<String> fanOut, boolean stored, String priorityOverride,
                                          boolean escalated) {
        return new RouteDecision(primary, fanOut, stored, priorityOverride, escalated);
    }
}
