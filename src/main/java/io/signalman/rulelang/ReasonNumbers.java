package io.signalman.rulelang;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Numbers an {@code @reason} quotes that its rule no longer says: {@code "quality under 0.7"} on
 * a rule testing {@code 0.8} reads as a stale reason. A quoted number is the rule's when the
 * rule's conditions test it, name it inside a text ({@code chat == "group:-100123"}), or its
 * decisions use it; an integer one away from a tested integer counts too ({@code > 50} is
 * "51 to 200"). A rule whose conditions test no number is not judged: its reason may quote the
 * bar a rule tried before it tests ("below 0.7" under a rule testing {@code >= 0.7}).
 */
public final class ReasonNumbers {

    private ReasonNumbers() {
    }

    /** The first number the reason quotes that the rule does not say, if any. */
    public static Optional<BigDecimal> stale(String reason, RuleReading rule) {
        if (reason == null) {
            return Optional.empty();
        }
        List<BigDecimal> said = said(rule);
        if (tested(rule).isEmpty()) {
            return Optional.empty();
        }
        for (BigDecimal n : numbers(reason)) {
            boolean found = said.stream().anyMatch(s -> s.compareTo(n) == 0 || isInteger(s) && isInteger(n)
                    && s.subtract(n).abs().compareTo(BigDecimal.ONE) == 0);
            if (!found) {
                return Optional.of(n);
            }
        }
        return Optional.empty();
    }

    /** Every number the rule's conditions name, in tests and in texts. */
    public static List<BigDecimal> tested(RuleReading rule) {
        List<BigDecimal> out = new ArrayList<>();
        for (PatternReading p : rule.patterns()) {
            for (Condition c : p.conditions()) {
                out.addAll(numbers(c.text()));
            }
        }
        return out;
    }

    /** Every number the rule's conditions test and its decisions use. */
    public static List<BigDecimal> said(RuleReading rule) {
        List<BigDecimal> out = tested(rule);
        for (DecideCall d : rule.decisions()) {
            for (var a : d.arguments()) {
                Object v = Condition.literal(a);
                if (v instanceof BigDecimal n) {
                    out.add(n);
                } else if (v instanceof String s) {
                    out.addAll(numbers(s));
                }
            }
        }
        return out;
    }

    /**
     * The numbers in a text: digits with an optional sign and decimals, standing alone (not part
     * of a word such as {@code t001} or {@code v2}).
     */
    static List<BigDecimal> numbers(String text) {
        List<BigDecimal> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            boolean start = Character.isDigit(c) || c == '-' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1));
            if (!start || i > 0 && (Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_'
                    || text.charAt(i - 1) == '.')) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < text.length() && (Character.isDigit(text.charAt(j))
                    || text.charAt(j) == '.' && j + 1 < text.length() && Character.isDigit(text.charAt(j + 1)))) {
                j++;
            }
            if (j >= text.length() || !Character.isLetter(text.charAt(j))) {
                out.add(new BigDecimal(text.substring(i, j)));
            }
            i = j;
        }
        return out;
    }

    private static boolean isInteger(BigDecimal n) {
        return n.stripTrailingZeros().scale() <= 0;
    }
}
