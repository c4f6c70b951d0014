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
