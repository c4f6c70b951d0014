package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * The reload lines of the bench table, from reload.json ({@link ReloadBench}): each edit's
 * seconds, the bare Drools build of the same file beside them, and the two ratios with targets.
 */
final class ReloadTable {

    /** reload.json's reloads, as the table names them. */
    private static final String[][] RELOADS = {
        {"whole_file", "the file of all 1,015 rules changed"},
        {"bare_drools", "the same file, bare Drools (no lint, no gate)"},
        {"one_file_changed", "one of ten files of 100 rules changed"},
        {"one_rule_changed", "one rule changed in the file of 1,015 rules"},
    };
    /** A whole-file reload may take at most this many times the bare Drools build of the same file. */
    static final double WHOLE_VS_BARE_TARGET = 1.2;
    /** A one-rule change may take at most this share of a whole-file reload. */
    static final double ONE_RULE_VS_WHOLE_TARGET = 0.2;

    private ReloadTable() {
    }

    /** The lines, and into {@code summary} the ratios they state against their targets. */
    static String rows(JsonNode reload, ObjectNode summary) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%-54s %8s %8s %8s %6s%n",
                "reload of 1,000 generated broker rules, warm", "median s", "max s", "first s", "units"));
        for (String[] r : RELOADS) {
            JsonNode row = reload.path(r[0]);
            if (!row.isMissingNode()) {
                t.append(String.format(Locale.ROOT, "  %-52s %8.2f %8.2f %8.2f %6s%n", r[1], row.get("median_seconds").asDouble(),
                        row.get("max_seconds").asDouble(), row.path("first_seconds").asDouble(),
                        row.has("median_units_built") ? Long.toString(row.get("median_units_built").asLong()) : "-"));
            }
        }
        double whole = reload.path("whole_file").path("median_seconds").asDouble();
        double bare = reload.path("bare_drools").path("median_seconds").asDouble();
        double oneRule = reload.path("one_rule_changed").path("median_seconds").asDouble();
        if (whole > 0 && bare > 0) {
            summary.put("reload_vs_bare_drools", whole / bare);
            t.append(String.format(Locale.ROOT, "  whole-file reload / bare Drools build of the same file: %.2fx (target at most %.1fx)%n",
                    whole / bare, WHOLE_VS_BARE_TARGET));
        }
        if (whole > 0 && oneRule > 0) {
            summary.put("one_rule_vs_whole_file", oneRule / whole);
            t.append(String.format(Locale.ROOT, "  one rule changed / whole file changed: %.0f%% (target at most %.0f%%)%n",
                    100 * oneRule / whole, 100 * ONE_RULE_VS_WHOLE_TARGET));
        }
        t.append(String.format(Locale.ROOT, "  (compile + gate; median of 5 after %d warm-up reloads; bare Drools: KieBuilder.buildAll with"
                + " the executable model, a KieContainer and its KieBase, timed in turn with the whole-file reload, round by round;"
                + " first: the first load of a fresh engine, cold JIT for the whole file; units: compile units rebuilt per"
                + " reload; target under 2 s)%n", reload.path("whole_file").path("warm_up_reloads")
                .asInt(reload.path("bare_drools").path("warm_up_reloads").asInt())));
        return t.toString();
    }
}
