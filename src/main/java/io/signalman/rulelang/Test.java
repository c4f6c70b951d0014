package io.signalman.rulelang;

import java.util.List;

/**
 * A constraint in one of the shapes analysts write, read as data: {@code priority == "critical"},
 * {@code subtype str[startsWith] "trade."}, {@code tokenEstimate > 50}, {@code kind in ("a", "b")},
 * {@code mentioned}, {@code flag("approved")}.
 *
 * @param field    what is tested, as written ({@code priority}, {@code number("quality")})
 * @param operator {@code == != < <= > >= startsWith endsWith in matches}
 * @param values   the literal(s): text as {@link String}, numbers as {@link java.math.BigDecimal},
 *                 yes/no as {@link Boolean}
 */
public record Test(String field, String operator, List<Object> values) {

    public Test {
        values = List.copyOf(values);
    }

    public Object value() {
        return values.get(0);
    }
}
