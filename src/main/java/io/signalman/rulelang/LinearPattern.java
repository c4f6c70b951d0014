package io.signalman.rulelang;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Range;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Regular expressions in rules, which Signalman matches with RE2/J: in time linear in the text,
 * however the pattern is written. Java's own engine backtracks, and one pattern such as
 * {@code (.*a){20}} against a long subtype would hold a worker for minutes. The executable
 * model compiles {@code x matches "p"} into a {@code java.util.regex.Pattern}; the compile path
 * puts RE2/J's {@link Pattern}, which has the same {@code compile}, {@code matcher} and
 * {@code matches}, in its place before the Java compiler sees it (see the engine's
 * {@code RuleSources}).
 */
public final class LinearPattern {

    /** The type the executable model writes for a pattern, and the one Signalman compiles instead. */
    public static final String BACKTRACKING = "java.util.regex.Pattern";
    public static final String LINEAR = Pattern.class.getName();

    private LinearPattern() {
    }

    /** Why RE2 refuses {@code regex}, in an analyst's words; null when it accepts it. */
    public static String problem(String regex) {
        try {
            Pattern.compile(regex);
            return null;
        } catch (PatternSyntaxException e) {
            return "it is not a pattern Signalman can match in linear time (" + e.getDescription() + "); patterns may use "
                    + "classes, alternatives and repetition, but not back-references (\\1), look-around ((?=, (?!, (?<=) "
                    + "or possessive repetition (a*+)";
        }
    }

    /**
     * The generated Java with RE2/J's Pattern in place of Java's in every field the executable
     * model declares for a {@code matches} (the field's type and its {@code compile} call), found
     * in the syntax tree, so a text in the rules that happens to spell the class name is left as
     * it is. Code the generated-Java check then reads: a pattern this misses is refused there.
     */
    public static String inGeneratedJava(String source) {
        if (!source.contains(BACKTRACKING)) {
            return source;
        }
        ParseResult<CompilationUnit> parsed = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17)).parse(source);
        if (!parsed.isSuccessful() || parsed.getResult().isEmpty()) {
            return source;
        }
        List<Range> names = new ArrayList<>();
        for (FieldDeclaration f : parsed.getResult().get().findAll(FieldDeclaration.class)) {
            for (VariableDeclarator v : f.getVariables()) {
                if (v.getNameAsString().startsWith("regexp_") && v.getTypeAsString().equals(BACKTRACKING)
                        && v.getInitializer().orElse(null) instanceof MethodCallExpr call && call.getNameAsString().equals("compile")
                        && call.getScope().map(Object::toString).orElse("").equals(BACKTRACKING)) {
                    v.getType().getRange().ifPresent(names::add);
                    call.getScope().flatMap(x -> x.getRange()).ifPresent(names::add);
                }
            }
        }
        LineStarts lines = LineStarts.of(source);
        StringBuilder out = new StringBuilder(source);
        names.sort(Comparator.comparing((Range r) -> r.begin).reversed());
        for (Range r : names) {
            int from = lines.offset(r.begin.line) + r.begin.column - 1;
            int to = lines.offset(r.end.line) + r.end.column;
            if (source.substring(from, to).equals(BACKTRACKING)) {
                out.replace(from, to, LINEAR);
            }
        }
        return out.toString();
    }
}
