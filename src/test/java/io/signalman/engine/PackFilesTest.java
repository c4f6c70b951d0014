package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.signalman.rulelang.RuleFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A rule file is read once: the reading a build made is the one its reference data gets. */
class PackFilesTest {

    private static final String DRL = """
            package signalman.dispatch;
            rule "one"
            when
            then
            end
            """;

    @Test
    void theBuildsReadingIsHandedOnAndAFileNobodyReadIsReadOnceWhenAskedFor() {
        Map<String, byte[]> bytes = Map.of("dispatch/a.drl", DRL.getBytes(StandardCharsets.UTF_8),
                "dispatch/b.drl", DRL.getBytes(StandardCharsets.UTF_8), "dispatch/agents.json", new byte[] {'{', '}'});
        RuleFile made = RuleFile.read(DRL, null);

        PackFiles files = PackFiles.of(bytes, Map.of("dispatch/a.drl", made));

        assertEquals(List.of("dispatch/a.drl", "dispatch/b.drl"), List.copyOf(new java.util.TreeSet<>(files.drlPaths())));
        assertSame(made, files.rules("dispatch/a.drl"), "the build's reading, not a second parse");
        RuleFile b = files.rules("dispatch/b.drl");
        assertEquals(1, b.rules().size());
        assertSame(b, files.rules("dispatch/b.drl"), "read once");
        assertThrows(IllegalArgumentException.class, () -> files.rules("dispatch/none.drl"));
    }
}
