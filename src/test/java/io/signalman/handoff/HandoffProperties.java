package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Action sequences: any run of agent responses (signals, near misses, noise, tool calls), played
 * turn by turn against a conversation as the router would, keeps every handoff invariant.
 */
class HandoffProperties {

    private static final RuleBundle RULES = TestBundles.shipped();

    record Action(int speaker, String text, int tools) {
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        Arbitrary<String> pieces = Arbitraries.of("[QUESTION]", "[ANSWER]", "[END_EXAM]", "[OK]", "[DONE]", "[done]",
                "[  kết  thúc thi ]", "[TECH]", "[tech]", "[ BILLING ]", "[TRIAGE]", "[FIXED]", "[RESOLVED]", "[COMPLETE]",
                "[SECOND   OPINION]", "[QUESTIONS]", "QUESTION", "[DON E]", "[RESOLVE]", "hello", "", " ", "ừ");
        Arbitrary<String> text = pieces.list().ofMaxSize(4).map(l -> String.join(" ", l));
        Arbitrary<Action> one = Combinators.combine(Arbitraries.integers().between(0, 9), text,
                Arbitraries.of(0, 0, 0, 1)).as(Action::new);
        return one.list().ofMaxSize(40);
    }

    @Property(tries = 300)
    void anySequenceOfResponsesKeepsCountWithinTheLimitAndTerminationWins(@ForAll("actions") List<Action> actions,
                                                                           @ForAll boolean exam) {
        Crew crew = RULES.requirePack("handoff").reference().as(HandoffReference.class).crew(exam ? "exam" : "support").orElseThrow();
        ConversationState s = ConversationState.start(crew);
        for (Action a : actions) {
            if (s.status() != ConversationState.Status.RUNNING) {
                s = new ConversationState(s.crew(), ConversationState.Status.RUNNING, crew.entryAgent(), null, List.of(), 0);
            }
            List<String> expected = ConversationRefused.expected(s.group() == null ? null : crew.group(s.group()).orElseThrow(), s);
            String agent = expected.get(a.speaker() % expected.size());
            TurnInput in = new TurnInput("p", agent, a.text(), a.tools(), s);
            Decision<HandoffOutcome> d = Packs.HANDOFF.decide(RULES, in, false);
            for (Invariant<TurnInput, HandoffOutcome> inv : HandoffInvariants.ALL) {
                assertEquals(java.util.Optional.empty(), inv.check(in, d, i -> Packs.HANDOFF.decide(RULES, i, false)),
                        inv.name() + " after " + in);
            }
            s = d.outcome().stateAfter();
        }
    }
}
