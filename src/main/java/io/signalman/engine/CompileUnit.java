package io.signalman.engine;

import java.util.List;
import java.util.Map;

/**
 * A part of a pack compiled on its own: the DRL sources one executable-model build sees, keyed by
 * their content so that an unchanged unit is never compiled twice.
 *
 * @param label         what the unit is, for messages ({@code broker/routing.drl rules 1-254})
 * @param sources       the DRL text of each resource of the build, by its path in the build
 * @param files         the bundle path of each resource that is an analyst's file (its lines and
 *                      columns are the file's own)
 * @param context       for the resource holding the declarations of the package's other files,
 *                      where each of its lines comes from (index 0 is line 1)
 * @param expectedRules how many rules the build must produce
 * @param key           sha-256 over everything the build depends on
 */
record CompileUnit(String pack, String label, Map<String, String> sources, Map<String, String> files,
                   Map<String, List<Origin>> context, int expectedRules, String key) {

    /** A line of a context resource: the file and line it was copied from (line 0: none). */
    record Origin(String file, int line) {
    }

    /** The analyst's file this unit reports a problem without a location against. */
    String firstFile() {
        return files.values().stream().sorted().findFirst().orElse(pack + "/");
    }
}
