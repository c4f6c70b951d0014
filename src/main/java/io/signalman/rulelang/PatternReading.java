package io.signalman.rulelang;

import com.github.javaparser.ast.expr.Expression;
import java.util.List;

/**
 * One pattern of a rule's condition ({@code $m : Message( priority == "critical" )}).
 *
 * @param binding  the pattern's {@code $name}, or null
 * @param source   the expression after {@code from}, or null when the pattern matches facts
 * @param positive true when the pattern must match for the rule to fire (not under
 *                 {@code not}, {@code exists}, {@code or} or {@code forall})
 */
public record PatternReading(String type, String binding, List<Condition> conditions, Expression source,
                             String sourceText, int line, boolean positive) {

    public PatternReading {
        conditions = List.copyOf(conditions);
    }
}
