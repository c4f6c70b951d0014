package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One scenario an analyst wrote beside the rules: a named input, the state it starts from (for the
 * stateful packs, in the {@code state_before} shape of a replay record), and the fields of the
 * decision it must come out with ({@code rule} among them when the deciding rule matters).
 *
 * @param file the scenario file, relative to the rules directory ({@code broker/scenarios/routing.yaml})
 * @param line the line of the scenario in its file
 * @param stateBefore null for a stateless pack, or when the pack's default state is meant
 */
public record Scenario(String name, String pack, String file, int line, JsonNode input, JsonNode stateBefore,
                       JsonNode expect) {

    public Scenario {
        Objects.requireNonNull(name);
        Objects.requireNonNull(pack);
        Objects.requireNonNull(file);
        Objects.requireNonNull(input);
        Objects.requireNonNull(expect);
    }

    /** {@code file:line}, as errors and reports name a scenario. */
    public String where() {
        return file + ":" + line;
    }
}
