package io.signalman.replay;

import io.signalman.TestBundles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The seed bundle plus one rule that decides a message two ways
 * ({@code src/test/resources/nondeterministic-rules}): the first decision each pooled session
 * makes differs from every later one, so a record is decided two ways exactly when it is the
 * first its session decides. With one replaying thread and a bundle whose sessions are fresh
 * ({@link io.signalman.engine.RuleBundle#apart}), that is the archive's first broker record.
 */
final class NondeterministicRules {

    static final Path RULE = Path.of("src/test/resources/nondeterministic-rules/broker/decides-from-reference-data-alone.drl");
    /** The broker invariant that catches it. */
    static final String INVARIANT = "the same message always gets the same decision";

    private NondeterministicRules() {
    }

    /** A copy of the seed rules in {@code dir}/rules with the rule added; returns the rules folder. */
    static Path copy(Path dir) {
        Path rules = TestBundles.copyOfRules(dir);
        try {
            Files.copy(RULE, rules.resolve("broker").resolve(RULE.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rules;
    }
}
