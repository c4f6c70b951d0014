package io.signalman.handoff;

import io.signalman.handoff.ConversationState.Report;
import io.signalman.handoff.ConversationState.Status;
import java.util.List;

/**
 * Applies what the rules ruled to a conversation: the router's half of a decision.
 * Pure: the same crew, state, turn and ruling always give the same step and state, which is what
 * lets replay re-decide from {@code state_before}.
 *
 * <p>Every counted handoff (signal, default, a parallel group from its start to its completion)
 * goes through {@link #handOff}, the one place {@code max_handoffs} is enforced: the handoff that
 * would reach the limit ends the conversation instead, so the count never exceeds it.
 */
final class Handoffs {

    /** The next step and the state it leaves the conversation in. */
    record Result(NextStep next, ConversationState state) {
    }

    private Handoffs() {
    }

    static Result apply(Crew crew, ConversationState s, String agent, Step.Ruling ruling) {
        Step.Kind kind = ruling.kind() == null ? Step.Kind.DEFAULT_HANDOFF : ruling.kind();
        if (kind == Step.Kind.RERUN) {
            return new Result(NextStep.of(NextStep.Type.RERUN, agent), s);
        }
        if (kind == Step.Kind.TERMINATE) {
            return new Result(NextStep.of(NextStep.Type.TERMINATE, agent), stopped(s, Status.TERMINATED, agent));
        }
        if (s.group() != null) {
            return member(crew, s, agent, kind == Step.Kind.ROUTE ? ruling.target() : null);
        }
        return switch (kind) {
            case ROUTE -> crew.knows(ruling.target()) ? handOff(crew, s, agent, ruling.target()) : fallback(crew, s, agent);
            case PAUSE -> new Result(NextStep.of(NextStep.Type.PAUSE, agent), stopped(s, Status.PAUSED, agent));
            case END -> new Result(NextStep.of(NextStep.Type.END, agent), stopped(s, Status.ENDED, agent));
            default -> fallback(crew, s, agent);
        };
    }

    /**
     * A member of the running group reported. Until every member has, the group keeps running;
     * then the conversation moves to the group's {@code next_agent}, else to where the first member
     * (in group order) with a routing signal pointed, else to the default handoff of the agent that
     * started the group. The group was counted as one handoff when it started (as go-agentic
     * counts it), so leaving it for an agent counts nothing more; leaving it for another group
     * starts that group, which counts.
     */
    private static Result member(Crew crew, ConversationState s, String agent, String route) {
        Crew.Group group = crew.group(s.group()).orElseThrow();
        ConversationState after = s.withReport(new Report(agent, route));
        List<String> pending = group.agents().stream().filter(a -> !after.hasReported(a)).toList();
        if (!pending.isEmpty()) {
            return new Result(NextStep.parallel(group, pending), after);
        }
        String next = group.nextAgent();
        String from = s.currentAgent();
        for (int i = 0; next == null && i < group.agents().size(); i++) {
            String member = group.agents().get(i);
            Report routed = after.reported().stream().filter(r -> r.agent().equals(member) && r.route() != null
                    && crew.knows(r.route())).findFirst().orElse(null);
            if (routed != null) {
                next = routed.route();
                from = routed.agent();
            }
        }
        if (next == null) {
            next = defaultTarget(crew, s.currentAgent());
        }
        if (next == null) {
            return new Result(NextStep.of(NextStep.Type.END, null), stopped(after, Status.ENDED, null));
        }
        if (crew.group(next).isPresent()) {
            return handOff(crew, after, from, next);
        }
        return new Result(NextStep.of(NextStep.Type.AGENT, next),
                new ConversationState(s.crew(), Status.RUNNING, next, null, List.of(), s.handoffCount()));
    }

    /**
     * The default handoff, or the end when the crew has no one to hand over to. The end
     * counts the handoff it attempted, as go-agentic does (its fallback increments the count before
     * it finds no target): a crew whose only agent is not terminal ends its first turn at 1.
     */
    private static Result fallback(Crew crew, ConversationState s, String agent) {
        String target = defaultTarget(crew, agent);
        if (target == null) {
            int count = Math.min(s.handoffCount() + 1, crew.maxHandoffs());
            return new Result(NextStep.of(NextStep.Type.END, agent), new ConversationState(s.crew(), Status.ENDED, agent, null,
                    List.of(), count));
        }
        return handOff(crew, s, agent, target);
    }

    /**
     * Where the default handoff goes from {@code agent}: its first usable {@code handoff_targets}
     * entry (one the crew knows, other than the agent itself), else the first agent in crew order
     * other than it (go-agentic's order: from the top, not from the agent's place), else null.
     */
    static String defaultTarget(Crew crew, String agent) {
        Crew.Agent me = agent == null ? null : crew.agent(agent).orElse(null);
        if (me != null) {
            for (String t : me.handoffTargets()) {
                if (!t.equals(agent) && crew.knows(t)) {
                    return t;
                }
            }
        }
        return crew.agents().stream().map(Crew.Agent::id).filter(id -> !id.equals(agent)).findFirst().orElse(null);
    }

    /**
     * One counted handoff from {@code from} to an agent or a group. While a group runs, the
     * conversation's current agent stays the one that started it: the group's default handoff
     * starts from there.
     */
    private static Result handOff(Crew crew, ConversationState s, String from, String target) {
        int count = s.handoffCount() + 1;
        if (count >= crew.maxHandoffs()) {
            return new Result(NextStep.limit(), new ConversationState(s.crew(), Status.ENDED, s.currentAgent(), null,
                    List.of(), count));
        }
        return crew.group(target).map(g -> new Result(NextStep.parallel(g, g.agents()),
                        new ConversationState(s.crew(), Status.RUNNING, from, g.id(), List.of(), count)))
                .orElseGet(() -> new Result(NextStep.of(NextStep.Type.AGENT, target),
                        new ConversationState(s.crew(), Status.RUNNING, target, null, List.of(), count)));
    }

    private static ConversationState stopped(ConversationState s, Status status, String agent) {
        return new ConversationState(s.crew(), status, agent, null, List.of(), s.handoffCount());
    }
}
