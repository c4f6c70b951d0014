package io.signalman.rulelang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.broker.AgentCard;
import io.signalman.broker.Message;
import io.signalman.broker.OrgChart;
import io.signalman.broker.Route;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The generated-Java check on hand-written sources shaped like Drools' output: what it refuses,
 * where it says the problem is, and that a name is right only when some source of the same build
 * declares it, whichever source that is.
 */
class GeneratedJavaTest {

    private static final Vocabulary BROKER = Vocabulary.of(Route.class, Message.class, AgentCard.class, OrgChart.class);

    private static List<GeneratedJava.Problem> check(Map<String, String> sources) {
        return GeneratedJava.check(BROKER, Set.of("rules"), sources);
    }

    private static final String USES_HELPER = """
            package rules;

            public class RulesA {

                public static Object make() {
                    return new Helper();
                }
            }
            """;

    @Test
    void aTypeIsRightOnlyWhereSomeSourceOfTheBuildDeclaresIt() {
        // Given a source that names a type the generator's words do not hold
        // When it is checked alone, then the type is refused, at its line
        List<GeneratedJava.Problem> alone = check(Map.of("rules/RulesA.java", USES_HELPER));
        assertEquals(1, alone.size(), alone.toString());
        assertEquals("the type Helper", alone.get(0).message());
        assertEquals(6, alone.get(0).line(), "the line of the use, so the analyst is told where");
        // When another source of the same build declares it (sorted before or after the user), then it is right
        String helper = "package rules;\n\npublic class Helper {\n}\n";
        assertEquals(List.of(), check(Map.of("rules/RulesA.java", USES_HELPER, "rules/Helper.java", helper)));
        assertEquals(List.of(), check(Map.of("rules/A.java", USES_HELPER, "rules/Z.java", helper)));
    }

    @Test
    void aNameThatIsOnlyAValueDoesNotMakeATypeRight() {
        // Given one source declaring a field named Helper and another using Helper as a type
        String field = "package rules;\n\npublic class Values {\n    public static final String Helper = \"x\";\n}\n";
        // Then the type is still refused: only a type declaration declares a type
        List<GeneratedJava.Problem> problems = check(Map.of("rules/RulesA.java", USES_HELPER, "rules/Values.java", field));
        assertEquals(List.of("the type Helper"), problems.stream().map(GeneratedJava.Problem::message).toList());
    }

    @Test
    void javaNewerThanTheGeneratorsIsRefusedThoughTheParseNoLongerValidatesTheLanguageLevel() {
        // Given sources with a local var, a record and a switch expression's yield: Java the generator never writes
        String var = "package rules;\n\npublic class RulesB {\n    public static void f() {\n        var x = \"a\";\n    }\n}\n";
        String record = "package rules;\n\npublic record RulesC(String a) {\n}\n";
        String yield = "package rules;\n\npublic class RulesD {\n    public static int f(int a) {\n"
                + "        return switch (a) { default -> { yield 1; } };\n    }\n}\n";
        // Then each is refused
        assertEquals(List.of("the type var"), check(Map.of("rules/RulesB.java", var)).stream()
                .map(GeneratedJava.Problem::message).toList());
        assertTrue(check(Map.of("rules/RulesC.java", record)).stream()
                .anyMatch(p -> p.message().contains("RecordDeclaration")), "a record");
        // (the raw level reads yield as a name, as Java before 14 did: this one does not parse, and a yield(...) is a call)
        assertFalse(check(Map.of("rules/RulesD.java", yield)).isEmpty(), "a yield");
        assertEquals(List.of("a call of yield(...)"), check(Map.of("rules/RulesF.java", "package rules;\n\npublic class RulesF {\n"
                + "    public static void f() {\n        yield(1);\n    }\n}\n")).stream().map(GeneratedJava.Problem::message).toList());
    }

    @Test
    void aQualifiedNameMustNameAPackageGeneratedCodeNamesHoweverItsWordsCameToBeAllowed() {
        // Given Java's backtracking regex named in full, its package's last word allowed three ways:
        // the rules' own package named after it, a local variable of that name, or both
        String call = "java.util.regex.Pattern.compile(\"(a+)+$\").matcher(\"aaaa!\").matches()";
        String viaLocal = "package signalman.broker;\n\npublic class RulesG {\n    public static boolean f() {\n"
                + "        String regex = \"x\";\n        return " + call + ";\n    }\n}\n";
        String viaPackage = "package signalman.regex;\n\npublic class RulesH {\n    public static boolean f() {\n"
                + "        return " + call + ";\n    }\n}\n";
        String viaImport = "package signalman.regex;\n\nimport java.util.regex.*;\n\npublic class RulesI {\n"
                + "    public static boolean f() {\n        return Pattern.compile(\"a\").matcher(\"a\").matches();\n    }\n}\n";
        // Then each is refused, naming the package, at the line that names it
        assertEquals(List.of("the package java.util.regex@6"), where(GeneratedJava.check(BROKER, Set.of("signalman.broker"),
                Map.of("signalman/broker/RulesG.java", viaLocal))));
        assertEquals(List.of("the package java.util.regex@5"), where(GeneratedJava.check(BROKER, Set.of("signalman.regex"),
                Map.of("signalman/regex/RulesH.java", viaPackage))));
        assertEquals(List.of("the package java.util.regex@3"), where(GeneratedJava.check(BROKER, Set.of("signalman.regex"),
                Map.of("signalman/regex/RulesI.java", viaImport))));
    }

    @Test
    void theGeneratorsPackagesTheVocabularysAndTheRulesOwnAreNamedFreely() {
        // Given the qualified names generated code holds: the rules' package and its lambdas' sub-package,
        // an import of the rules' class, the vocabulary's and Drools' model classes, java.lang
        String source = """
                package signalman.broker.PB8;

                import static signalman.broker.RulesFD424D87471FD92505D45FC5D990D66C.*;
                import signalman.broker.*;
                import io.signalman.broker.Message;

                @org.drools.compiler.kie.builder.MaterializedLambda()
                public enum LambdaPredicateB8C20E10389FA9EBDB46D29592F86C09 implements org.drools.model.functions.Predicate1<io.signalman.broker.Message> {

                    INSTANCE;

                    public java.lang.String getExpressionHash() {
                        return org.drools.model.Rule.Attribute.SALIENCE.toString();
                    }

                    public boolean test(io.signalman.broker.Message _this) throws java.lang.Exception {
                        return org.drools.modelcompiler.util.EvaluationUtil.areNullSafeEquals(_this.subtype(), "gen.701");
                    }
                }
                """;
        // Then nothing is refused but the one call the generator never writes (toString is not on its list)
        assertEquals(List.of("a call of toString(...)@13"), where(GeneratedJava.check(BROKER, Set.of("signalman.broker"),
                Map.of("signalman/broker/PB8/LambdaPredicateB8C20E10389FA9EBDB46D29592F86C09.java", source))));
    }

    private static List<String> where(List<GeneratedJava.Problem> problems) {
        return problems.stream().map(p -> p.message() + "@" + p.line()).toList();
    }

    @Test
    void anEscapeIsRefusedAtItsLineBeforeAnythingIsParsed() {
        // Given a source whose comment holds an escape that Java would read as a newline and then code
        String escaped = "package rules;\n\npublic class RulesE {\n    // \\u000a static { }\n}\n";
        // Then it is refused at the escape's line, as an escape
        List<GeneratedJava.Problem> problems = check(Map.of("rules/RulesE.java", escaped));
        assertEquals(1, problems.size(), problems.toString());
        assertEquals(4, problems.get(0).line());
        assertTrue(problems.get(0).message().contains("escape"), problems.toString());
    }
}
