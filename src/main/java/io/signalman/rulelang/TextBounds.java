package io.signalman.rulelang;

/**
 * How much rule text the readers accept, checked before the parser that could blow up on it sees
 * it. Drools' expression parser takes time exponential in the nesting of parentheses (depth 14
 * took 30 s in one constraint, depth 20 more than two minutes), and RE2 compiles a repetition
 * count into that many copies of what it repeats; everything else the readers do is linear in
 * the text, and these bounds keep the text itself small.
 *
 * <p>NOTE: constants rather than flags. They bound the readers, not the rules' meaning: the
 * shipped rules are far inside them (nesting 4, 5 patterns, 200-character constraints), and a
 * rule that needs more is better written as two. The cost of what a rule does once it runs has
 * its own budgets, which are flags ({@code io.signalman.cost.Budgets}).
 */
public final class TextBounds {

    /** The deepest nesting of ( [ { outside text and comments, anywhere in a rule file. */
    public static final int MAX_DEPTH = 8;
    /** The largest rule file (a decision table counts as the DRL it becomes), in characters. */
    public static final int MAX_FILE_CHARS = 4 * 1024 * 1024;
    /** The most rules in one file; the benchmark's generated file holds 1,015. */
    public static final int MAX_RULES_PER_FILE = 5_000;
    /** The most patterns in one rule's condition, wherever they are (under not, exists, or). */
    public static final int MAX_PATTERNS_PER_RULE = 12;
    /** The longest single constraint, eval or from source, in characters. */
    public static final int MAX_EXPRESSION_CHARS = 2_000;
    /** The largest count in a pattern's repetition ({@code a{100}}). */
    public static final int MAX_REPEAT = 100;
    /** The largest pattern, counted as RE2 compiles it (each repetition's copies included). */
    public static final int MAX_PATTERN_SIZE = 1_000;

    private TextBounds() {
    }

    static String tooDeep() {
        return "brackets are nested more than " + MAX_DEPTH + " deep here; the rule readers refuse deeper nesting "
                + "(reading it costs time that doubles with every level): split the condition into simpler ones";
    }

    static String fileTooLarge(int chars) {
        return "the file holds " + chars + " characters, more than the " + MAX_FILE_CHARS + " a rule file may hold: "
                + "split it into several files";
    }

    static String tooManyRules(int rules) {
        return "the file holds " + rules + " rules, more than the " + MAX_RULES_PER_FILE + " a rule file may hold: "
                + "split it into several files";
    }

    static String tooManyPatterns(int patterns) {
        return "it has " + patterns + " patterns, more than the " + MAX_PATTERNS_PER_RULE
                + " a rule may have: derive a fact in an earlier rule, or split the rule";
    }

    static String expressionTooLong(int chars) {
        return "this condition is " + chars + " characters long, more than the " + MAX_EXPRESSION_CHARS
                + " one condition may be: split it into several conditions";
    }
}
