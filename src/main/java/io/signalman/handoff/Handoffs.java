package io.signalman.handoff;

import io.signalman.handoff.ConversationState.Report;
import io.signalman.handoff.ConversationState.Status;
import java.util.List;

/**
 * Applies what the rules ruled to a conversation: the router's half of a decision (SPEC 4.5).
 * Pure: the same crew, state, turn and ruling always give the same step and state, which is what
 * lets replay re-decide from {@code state_before}.
 *
 * <p>Every handoff (signal, parallel group start and end, default) goes through {@link #handOff},
 * the one place {@code max_handoffs} is enforced: the handoff that would reach the limit ends the
 * conversation instead, so the count never exceeds it.
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
            case ROUTE -> crew.knows(ruling.target()) ? handOff(crew, s, ruling.target()) : fallback(crew, s, agent);
            case PAUSE -> new Result(NextStep.of(NextStep.Type.PAUSE, agent), stopped(s, Status.PAUSED, agent));
            case END -> new Result(NextStep.of(NextStep.Type.END, agent), stopped(s, Status.ENDED, agent));
            default -> fallback(crew, s, agent);
        };
    }

    /**
     * A member of the running group reported. Until every member has, the group keeps running;
     * then the conversation moves to the group's {@code next_agent}, else to where the first member
     * (in group order) with a routing signal pointed, else it ends.
     */
    private static Result member(Crew crew, ConversationState s, String agent, String route) {
        Crew.Group group = crew.group(s.group()).orElseThrow();
        ConversationState after = s.withReport(new Report(agent, route));
        List<String> pending = group.agents().stream().filter(a -> !after.hasReported(a)).toList();
        if (!pending.isEmpty()) {
            return new Result(NextStep.parallel(group, pending), after);
        }
        String next = group.nextAgent();
        for (int i = 0; next == null && i < group.agents().size(); i++) {
            String member = group.agents().get(i);
            next = after.reported().stream().filter(r -> r.agent().equals(member) && r.route() != null
                    && crew.knows(r.route())).map(Report::route).findFirst().orElse(null);
        }
        if (next == null) {
            return new Result(NextStep.of(NextStep.Type.END, null), stopped(after, Status.ENDED, null));
        }
        return handOff(crew, after, next);
    }

    /**
     * The default handoff: the agent's first usable {@code handoff_targets} entry (one the crew
     * knows, other than the agent itself), else the next other agent in crew order, else the end.
     */
    private static Result fallback(Crew crew, ConversationState s, String agent) {
        Crew.Agent me = crew.agent(agent).orElse(null);
        if (me != null) {
            for (String t : me.handoffTargets()) {
                if (!t.equals(agent) && crew.knows(t)) {
                    return handOff(crew, s, t);
                }
            }
        }
        List<Crew.Agent> agents = crew.agents();
        int at = me == null ? -1 : agents.indexOf(me);
        for (int i = 1; i <= agents.size(); i++) {
            Crew.Agent next = agents.get(Math.floorMod(at + i, agents.size()));
            if (!next.id().equals(agent)) {
                return handOff(crew, s, next.id());
            }
        }
        return new Result(NextStep.of(NextStep.Type.END, agent), stopped(s, Status.ENDED, agent));
    }

    private static Result handOff(Crew crew, ConversationState s, String target) {
        int count = s.handoffCount() + 1;
        if (count >= crew.maxHandoffs()) {
            return new Result(NextStep.limit(), new ConversationState(s.crew(), Status.ENDED, s.currentAgent(), null,
                    List.of(), count));
        }
        return crew.group(target).map(g -> new Result(NextStep.parallel(g, g.agents()),
                        new ConversationState(s.crew(), Status.RUNNING, null, g.id(), List.of(), count)))
                .orElseGet(() -> new Result(NextStep.of(NextStep.Type.AGENT, target),
                        new ConversationState(s.crew(), Status.RUNNING, target, null, List.of(), count)));
    }

    private static ConversationState stopped(ConversationState s, Status status, String agent) {
        return new ConversationState(s.crew(), status, agent, null, List.of(), s.handoffCount());
    }
}
