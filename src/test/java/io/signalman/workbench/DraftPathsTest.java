package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A draft's file names stay plain relative paths inside the draft's folder. */
class DraftPathsTest {

    private static final Path ROOT = Path.of("/data/workbench/drafts/0123456789abcdef/rules");

    @Test
    void aPlainRelativePathResolvesInsideTheDraft() {
        assertEquals(ROOT.resolve("broker/routing.drl"), DraftPaths.resolve(ROOT, "broker/routing.drl"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../escape.drl", "broker/../../escape.drl", "/etc/passwd.drl", "broker/./routing.drl",
        ".hidden.drl", "broker\\\\routing.drl", "broker//routing.drl", "broker/run.sh", "broker/table.exe", "", "a/b/c/d/e.drl", "broker/ routing.drl"})
    void anythingElseIsRefused(String name) {
        WorkbenchException e = assertThrows(WorkbenchException.class, () -> DraftPaths.resolve(ROOT, name));
        assertEquals(400, e.status());
    }
}
