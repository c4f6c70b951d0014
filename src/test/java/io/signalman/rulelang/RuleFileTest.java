package io.signalman.rulelang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.broker.AgentCard;
import io.signalman.broker.Message;
import io.signalman.broker.OrgChart;
import io.signalman.broker.Route;
import io.signalman.handoff.Said;
import io.signalman.handoff.Step;
import io.signalman.handoff.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/** The rule language: what a rule may say, and each way out of it refused at its line. */
class RuleFileTest {

    private static final Vocabulary BROKER = Vocabulary.of(Route.class, Message.class, AgentCard.class, OrgChart.class);
    private static final Vocabulary HANDOFF = Vocabulary.of(Step.class, Turn.class, Said.class);

    private static final String HEAD = """
            package signalman.broker;

            import io.signalman.broker.Message;
            import io.signalman.broker.OrgChart;
            global io.signalman.broker.Route decide;

            """;

    /** A rule of the broker pack whose condition and consequence are given; HEAD is 6 lines, so "when" is line 10. */
    private static String rule(String when, String then) {
        return HEAD + """
                rule "hostile"
                    @reason("testing")
                    agenda-group "route" activation-group "route" salience 100
                when
                """ + when + "\nthen\n" + then + "\nend\n";
    }

    private static Finding only(RuleFile f) {
        assertTrue(f.parsed(), () -> "did not parse: " + f.syntaxErrors());
        assertEquals(1, f.errors().size(), () -> "expected one finding: " + f.errors());
        return f.errors().get(0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            reads /etc/hostname       | decide.primary(new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/etc/hostname"))));
            prints to System.out      | System.out.println("hello");
            loops forever             | while (true) { }
            starts a thread           | new Thread(() -> { }).start();
            uses reflection           | Class.forName("java.lang.Runtime").getMethod("getRuntime").invoke(null);
            calls a static method     | decide.primary(String.valueOf(Math.max(1, 2)));
            assigns a field           | decide = null;
            calls an unknown method   | insert(new Object());
            reflects over a fact      | decide.primary($m.getClass().getName());
            """)
    void aConsequenceThatRunsCodeIsRefusedAtItsLine(String what, String statement) {
        // Given a consequence whose second line does something other than deciding
        String text = rule("    $m : Message( priority == \"critical\" )", "    decide.store();\n    " + statement);

        // When it is read with the broker's vocabulary
        Finding f = only(RuleFile.read(text, BROKER));

        // Then it is refused on that line (when is line 10, its pattern 11, then 12, the statements 13 and 14)
        assertEquals(14, f.line(), f::toString);
        assertTrue(f.message().startsWith("rule \"hostile\": "), f::toString);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an eval of a static call            | eval( System.currentTimeMillis() > 0 )
            an eval reading a file              | eval( java.nio.file.Files.exists(java.nio.file.Path.of("/etc/passwd")) )
            a from over a static method call    | $l : String() from java.nio.file.Files.readAllLines(java.nio.file.Path.of("/etc/hostname"))
            a constraint calling System         | Message( System.getenv("HOME") != null )
            a constraint creating an object     | Message( priority == new String("x") )
            a constraint reflecting over a fact | Message( getClass() != null )
            """)
    void aConditionThatRunsCodeIsRefusedAtItsLine(String what, String element) {
        // Given a condition whose second element runs code
        String text = rule("    $m : Message( priority == \"critical\" )\n    " + element, "    decide.store();");

        // When it is read
        RuleFile f = RuleFile.read(text, BROKER);

        // Then it is refused on line 12, where that element is
        assertTrue(f.parsed(), f.syntaxErrors()::toString);
        assertTrue(!f.errors().isEmpty() && f.errors().stream().allMatch(e -> e.line() == 12), f.errors()::toString);
    }

    /** A rule file changed outside its rule (one replacement), refused with one finding at its line, saying {@code words}. */
    private record Outside(String why, String from, String to, int line, List<String> words) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Outside> OUTSIDE = List.of(
            new Outside("an import of anything but the pack's facts is refused at its line, naming what it may import",
                    "import io.signalman.broker.OrgChart;", "import java.io.File;", 4,
                    List.of("java.io.File", "io.signalman.broker.Message")),
            new Outside("a function declaration is refused at its line", "global io.signalman.broker.Route decide;\n",
                    "global io.signalman.broker.Route decide;\nfunction String host() { return \"x\"; }\n", 6,
                    List.of("function host")),
            new Outside("a second global is refused", "global io.signalman.broker.Route decide;\n",
                    "global io.signalman.broker.Route decide;\nglobal java.util.List out;\n", 6, List.of()),
            new Outside("a timer is refused", "salience 100", "salience 100 timer (int: 1s)", 9, List.of("timer")));

    @ParameterizedTest(name = "{0}")
    @FieldSource("OUTSIDE")
    void whatARuleFileMayNotDeclareIsRefusedAtItsLine(Outside c) {
        String text = rule("    Message()", "    decide.store();").replace(c.from(), c.to());

        Finding f = only(RuleFile.read(text, BROKER));

        assertEquals(c.line(), f.line(), f::toString);
        for (String w : c.words()) {
            assertTrue(f.message().contains(w), f::toString);
        }
    }

    @Test
    void theShapesAnalystsWriteAreAllowed() {
        // Given the broker's own shapes: bindings, a published test, accessors in the consequence
        String text = rule("""
                    $m : Message( type != "escalation", subtype str[startsWith] "trade." || subtype in ("a", "b") )
                    $org : OrgChart( tradingAgents.size() > 0, knows($m.fromAgent) )""",
                "    String boss = $org.managerOf($m.fromAgent());\n"
                        + "    decide.primary(boss).fanOut(\"mission-control\").priority(\"high\");");

        RuleFile f = RuleFile.read(text, BROKER);

        assertEquals(List.of(), f.errors());
        RuleReading r = f.rules().get(0);
        assertEquals(List.of("primary", "fanOut", "priority"), r.decisions().stream().map(DecideCall::method).toList());
        assertEquals(List.of("mission-control"), r.calls("fanOut").get(0).texts());
    }

    @Test
    void anUnknownFieldIsReportedAtItsLineWithTheFieldsThatExist() {
        Finding f = only(RuleFile.read(rule("    Message( priorty == \"critical\" )", "    decide.store();"), BROKER));
        assertEquals(11, f.line());
        assertTrue(f.message().contains("did you mean \"priority\"?") && f.message().contains("Its fields: fromAgent, id,"),
                f::toString);
    }

    @Test
    void aDecisionGivenTheWrongKindOfValueSaysWhatItTakes() {
        Finding f = only(RuleFile.read(rule("    Message()", "    decide.store();\n    decide.priority(3);"), BROKER));
        assertEquals(14, f.line());
        assertTrue(f.message().contains("decide.priority(text) takes text here, not the number 3"), f::toString);
    }

    @Test
    void anUnknownTestIsReportedWithWhatTheFactOffers() {
        Finding f = only(RuleFile.read(rule("    $o : OrgChart( mangerOf(\"x\") != null )", "    decide.store();"), BROKER));
        assertTrue(f.message().contains("OrgChart has no test \"mangerOf\"; did you mean \"managerOf\"?"), f::toString);
        assertTrue(f.message().contains("managerOf(text)"), f::toString);
    }

    @ParameterizedTest(name = "missing in the {0}")
    @CsvSource(delimiter = '|', textBlock = """
            condition   | 12 | '    Message( priority == "critical",\\n        type == "x"'              | '    decide.store();'
            consequence | 13 | '    Message( priority == "critical" )'                               | '    decide.primary("x";'
            """)
    void aMissingParenthesisIsReportedOnTheLineThatLacksIt(String where, int line, String when, String then) {
        RuleFile f = RuleFile.read(rule(when.replace("\\n", "\n"), then), BROKER);
        List<Finding> all = f.parsed() ? f.errors() : f.syntaxErrors();
        assertEquals(1, all.size(), all::toString);
        assertEquals(line, all.get(0).line(), all::toString);
        assertTrue(all.get(0).message().contains("\")\" is missing"), all::toString);
    }

    @Test
    void aRouteTargetReadsTheSameWrittenWithAVariableOrOverTwoLines() {
        String head = "package signalman.handoff;\nimport io.signalman.handoff.Turn;\nimport io.signalman.handoff.Said;\n"
                + "global io.signalman.handoff.Step decide;\n";
        String text = head + """
                rule "r"
                    agenda-group "route" activation-group "route" salience 10
                when
                    $turn : Turn( crew == "support", agent == "triage" )
                    $said : Said() from $turn.match("[BILLING]")
                then
                    String target = "billing";
                    decide.route($said,
                        target);
                end
                """;
        RuleFile f = RuleFile.read(text, HANDOFF);
        assertEquals(List.of(), f.errors());
        DecideCall route = f.rules().get(0).calls("route").get(0);
        assertEquals("billing", route.text(1).orElseThrow());
        assertEquals(12, route.line());
    }
}
