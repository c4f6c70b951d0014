package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused pack reports its errors together, not in waves: a stage that fails no
 * longer hides what the stages after it would find in the files that were read.
 */
class PackBuildTest {

    @TempDir
    Path tmp;

    @Test
    void aSyntaxErrorInOneFileDoesNotHideAMisspeltRecipientInAnother() throws Exception {
        // Given the broker pack with a missing ")" in its routing and a misspelt recipient in a file of its own
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve("broker/routing.drl"), "Message( priority == \"critical\" )", "Message( priority == \"critical\" ");
        Files.writeString(rules.resolve("broker/risk.drl"), """
                package signalman.broker;
                import io.signalman.broker.Message;
                global io.signalman.broker.Route decide;

                rule "risk messages go to the risk monitor"
                    @reason("the subtype starts with risk.")
                    agenda-group "route" activation-group "route" salience 450
                when
                    Message( subtype str[startsWith] "risk." )
                then
                    decide.primary("risk-monitr");
                end
                """);

        // When it is compiled
        List<BundleError> errors = refused(rules);

        // Then both are reported, each in its own file
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("broker/routing.drl")), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("broker/risk.drl") && e.line() == 11
                && e.message().contains("did you mean \"risk-monitor\"")), errors.toString());
    }

    @Test
    void aSyntaxErrorDoesNotHideAMisspeltRecipientFurtherDownTheSameFileNorASecondSyntaxError() throws Exception {
        // Given the broker's routing with a missing ")" in its first rule, a misspelt recipient in a rule further
        // down, and another missing ")" further still
        Path rules = TestBundles.copyOfRules(tmp);
        Path routing = rules.resolve("broker/routing.drl");
        TestBundles.edit(routing, "Message( priority == \"critical\" )", "Message( priority == \"critical\" ");
        TestBundles.edit(routing, "decide.primary(\"vp-trading\")", "decide.primary(\"vp-tradng\")");
        String text = Files.readString(routing);
        int content = text.indexOf("rule \"content messages go to VP Content\"");
        int pattern = text.indexOf("Message(", content);
        Files.writeString(routing, text.substring(0, pattern) + text.substring(pattern).replaceFirst("\\)\\s*\n", "\n"));
        int contentLine = (int) text.substring(0, pattern).lines().count();

        // When it is compiled
        List<BundleError> errors = refused(rules);

        // Then all three are reported at once, each at its own line
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("broker/routing.drl") && e.line() >= 18 && e.line() <= 20), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("broker/routing.drl") && e.line() == 50
                && e.message().contains("did you mean \"vp-trading\"")), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("broker/routing.drl") && e.line() >= contentLine
                && e.line() <= contentLine + 2), contentLine + ": " + errors);
    }

    @Test
    void aDecisionTableThatCannotBeReadDoesNotHideTheRestOfItsPack() throws Exception {
        // Given the dispatch pack's weights as a table whose salience is not a number, and a missing ")" in its DRL
        Path rules = TestBundles.copyOfRules(tmp);
        Files.delete(rules.resolve("dispatch/model.drl"));
        Files.writeString(rules.resolve("dispatch/model.csv"), Files.readString(Path.of("src/test/resources/workbench/seed-model-weights.csv"))
                .replace("medium messages lean a little heavy,score,590,", "medium messages lean a little heavy,score,59O,"));
        String dispatch = Files.readString(rules.resolve("dispatch/dispatch.drl"));
        int at = dispatch.indexOf(")", dispatch.indexOf("\nwhen"));
        Files.writeString(rules.resolve("dispatch/dispatch.drl"), dispatch.substring(0, at) + dispatch.substring(at + 1));

        // When it is compiled, then the table's error and the DRL's are reported together
        List<BundleError> errors = refused(rules);
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("dispatch/model.csv") && e.line() == 12), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.file().equals("dispatch/dispatch.drl")), errors.toString());
    }

    private static List<BundleError> refused(Path rules) {
        return assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules))).errors();
    }
}
