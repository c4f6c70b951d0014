package io.signalman.workbench;

import io.signalman.engine.tables.TableLayout;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What kind of value a decision-table column holds, so that the workbench's grid checks each cell
 * as it is typed and says what is wrong in words ({@code 0,15} is not a number; write 0.15)
 * instead of leaving it to Drools' message about a column header. Worked out from the column's
 * kind (a priority is a whole number), its code (an ordering comparison compares numbers) and the
 * values it holds now; a column nothing settles is text, which takes anything.
 */
final class CellTypes {

    static final String INTEGER = "integer";
    static final String NUMBER = "number";
    static final String BOOLEAN = "boolean";
    static final String TEXT = "text";

    private static final Set<String> TEXT_KINDS = Set.of("NAME", "DESCRIPTION", "METADATA", "AGENDA-GROUP",
            "ACTIVATION-GROUP", "RULEFLOW-GROUP", "TIMER", "CALENDARS");
    private static final Set<String> INTEGER_KINDS = Set.of("PRIORITY", "SALIENCE", "DURATION");
    private static final Pattern INT = Pattern.compile("-?[0-9]+");
    private static final Pattern NUM = Pattern.compile("-?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
    private static final Pattern ORDERING = Pattern.compile("[<>]=?\\s*\\$param");

    private CellTypes() {
    }

    static String of(TableLayout.Column c, List<String> values) {
        String kind = c.kind().toUpperCase(java.util.Locale.ROOT);
        if (INTEGER_KINDS.contains(kind)) {
            return INTEGER;
        }
        if (TEXT_KINDS.contains(kind)) {
            return TEXT;
        }
        List<String> set = values.stream().map(String::strip).filter(v -> !v.isEmpty()).toList();
        if (!set.isEmpty() && set.stream().allMatch(v -> v.equals("true") || v.equals("false"))) {
            return BOOLEAN;
        }
        if (!set.isEmpty() && set.stream().allMatch(v -> INT.matcher(v).matches())) {
            return ORDERING.matcher(c.code()).find() ? INTEGER : NUMBER;
        }
        if (ORDERING.matcher(c.code()).find() || !set.isEmpty() && set.stream().allMatch(v -> NUM.matcher(v).matches())) {
            return NUMBER;
        }
        return TEXT;
    }
}
