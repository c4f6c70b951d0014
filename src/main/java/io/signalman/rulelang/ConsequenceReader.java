package io.signalman.rulelang;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.EmptyStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a rule's consequence with JavaParser: it may only call the pack's decision API
 * ({@code decide.primary("vp-trading").fanOut("cfo");}), with arguments that are literals or
 * read the rule's bindings, and may name a value first ({@code String target = "billing";}).
 * Every other statement (a loop, {@code System.out}, {@code new Thread}, reflection, an
 * assignment) is refused at its line.
 */
final class ConsequenceReader {

    /** Types a consequence may name a value with. */
    private static final Set<String> LOCAL_TYPES = Set.of("var", "String", "int", "long", "double", "boolean", "Integer",
            "Long", "Double", "Boolean", "BigDecimal", "List<String>");

    private final Vocabulary vocabulary;
    private final Map<String, Class<?>> names;
    private final List<Finding> findings;
    private final int firstLine;
    private final int firstColumn;
    private final Map<String, Expression> locals = new HashMap<>();
    private final List<DecideCall> calls = new ArrayList<>();

    /**
     * @param vocabulary  the pack's; null to read the calls without checking them
     * @param firstLine   the file line where {@code code} starts
     * @param firstColumn the 1-based column where {@code code} starts on that line
     */
    private ConsequenceReader(Vocabulary vocabulary, Map<String, Class<?>> bindings, List<Finding> findings, int firstLine,
                              int firstColumn) {
        this.vocabulary = vocabulary;
        this.names = new LinkedHashMap<>(bindings);
        this.findings = findings;
        this.firstLine = firstLine;
        this.firstColumn = firstColumn;
    }

    static List<DecideCall> read(String code, int firstLine, int firstColumn, Vocabulary vocabulary,
                                 Map<String, Class<?>> bindings, List<Finding> findings) {
        ConsequenceReader r = new ConsequenceReader(vocabulary, bindings, findings, firstLine, firstColumn);
        ParseResult<BlockStmt> parsed = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17)).parseBlock("{" + code + "\n}");
        if (!parsed.isSuccessful() || parsed.getResult().isEmpty()) {
            r.unreadable(code, parsed.getProblems());
            return List.of();
        }
        for (Statement s : parsed.getResult().get().getStatements()) {
            r.statement(s);
        }
        return r.calls;
    }

    /** A consequence JavaParser refused: an unbalanced bracket is placed on its line, else the parser's first problem. */
    private void unreadable(String code, List<Problem> problems) {
        List<String> lines = code.lines().toList();
        java.util.Deque<int[]> open = new java.util.ArrayDeque<>();
        Finding extra = Brackets.scan(lines, 1, lines.size(), open);
        if (extra != null) {
            findings.add(new Finding(firstLine + extra.line() - 1, extra.line() == 1 ? firstColumn + extra.column() - 1
                    : extra.column(), extra.message()));
            return;
        }
        if (!open.isEmpty()) {
            int[] at = open.peek();
            char close = at[2] == '(' ? ')' : at[2] == '[' ? ']' : '}';
            findings.add(new Finding(firstLine + at[0] - 1, at[0] == 1 ? firstColumn + at[1] - 1 : at[1], "a \"" + close
                    + "\" is missing: the \"" + (char) at[2] + "\" opened here is never closed"));
            return;
        }
        Problem p = problems.isEmpty() ? null : problems.get(0);
        Position at = p == null ? null : p.getLocation().flatMap(l -> l.getBegin().getRange()).map(x -> x.begin).orElse(null);
        findings.add(new Finding(at == null ? firstLine : line(at), at == null ? firstColumn : column(at),
                "the consequence does not read as calls of decide: " + Syntax.plain(p == null ? "" : p.getMessage())));
    }

    private void statement(Statement s) {
        if (s instanceof EmptyStmt) {
            return;
        }
        if (s instanceof ExpressionStmt e && e.getExpression() instanceof VariableDeclarationExpr v) {
            for (VariableDeclarator d : v.getVariables()) {
                local(d);
            }
            return;
        }
        if (s instanceof ExpressionStmt e && e.getExpression() instanceof MethodCallExpr m) {
            decision(m);
            return;
        }
        Node what = s instanceof ExpressionStmt e ? e.getExpression() : s;
        refuse(s, Words.kind(what) + " is not part of the rule language; a consequence only calls decide: " + api());
    }

    private void local(VariableDeclarator d) {
        String type = d.getTypeAsString();
        if (!LOCAL_TYPES.contains(type) && (vocabulary == null || vocabulary.fact(type).isEmpty())) {
            refuse(d, "a value named in a consequence is text, a number, yes/no or a fact, not " + type);
            return;
        }
        if (d.getInitializer().isEmpty()) {
            refuse(d, "\"" + d.getNameAsString() + "\" is named without a value; write " + d.getNameAsString() + " = ...");
            return;
        }
        Expression init = d.getInitializer().get();
        Class<?> t = check(init);
        if (t != null) {
            locals.put(d.getNameAsString(), resolve(init));
            names.put(d.getNameAsString(), t);
        }
    }

    /** {@code decide.a(...).b(...)}: every call in the chain is the decision API's, rooted at the global. */
    private void decision(MethodCallExpr outer) {
        List<MethodCallExpr> chain = new ArrayList<>();
        Expression at = outer;
        while (at instanceof MethodCallExpr m) {
            chain.add(0, m);
            at = m.getScope().orElse(null);
        }
        if (!(at instanceof NameExpr root) || !root.getNameAsString().equals(Vocabulary.GLOBAL)) {
            String first = chain.get(0).getNameAsString() + "(...)";
            String what = at == null ? "calls " + first + ", which is not part of the rule language"
                    : at instanceof NameExpr || at instanceof FieldAccessExpr ? Words.outside(at + "." + first)
                    : Words.kind(at) + " is not part of the rule language";
            refuse(outer, what + "; a consequence only calls decide: " + api());
            return;
        }
        Map<String, java.lang.reflect.Method> api = vocabulary == null ? null : vocabulary.decisions();
        for (MethodCallExpr m : chain) {
            String name = m.getNameAsString();
            if (api != null && !api.containsKey(name)) {
                String hint = Suggest.didYouMean(name, api.keySet());
                refuse(m.getName(), "decide has no \"" + name + "\"" + hint + (hint.isEmpty() ? ". " : " ") + "It offers " + api());
                continue;
            }
            boolean ok = true;
            List<Expression> args = new ArrayList<>();
            for (Expression a : m.getArguments()) {
                ok &= check(a) != null;
                args.add(resolve(a));
            }
            if (ok && api != null) {
                ok = arguments(m, vocabulary.decisionForms(name), args);
            }
            if (ok) {
                calls.add(new DecideCall(name, args, line(m.getName()), column(m.getName())));
            }
        }
    }

    /**
     * The decision's arguments fit what it takes: how many, and text where it takes text and a
     * number where it takes a number (for literals), said before the Java compiler says it in Java.
     */
    private boolean arguments(MethodCallExpr call, List<java.lang.reflect.Method> forms, List<Expression> args) {
        List<Finding> first = new ArrayList<>();
        for (java.lang.reflect.Method form : forms) {
            List<Finding> problems = new ArrayList<>();
            fits(call, form, args, problems);
            if (problems.isEmpty()) {
                return true;
            }
            if (first.isEmpty()) {
                first = problems;
            }
        }
        if (forms.size() > 1) {
            findings.add(new Finding(line(call.getName()), column(call.getName()), "decide." + call.getNameAsString()
                    + " takes " + String.join(" or ", forms.stream().map(Vocabulary::signature).toList())));
        } else {
            findings.addAll(first);
        }
        return false;
    }

    /** Whether the arguments fit one form of the decision; what does not is added to {@code problems}. */
    private void fits(MethodCallExpr call, java.lang.reflect.Method method, List<Expression> args, List<Finding> problems) {
        Class<?>[] params = method.getParameterTypes();
        boolean varargs = method.isVarArgs();
        if (varargs ? args.size() < params.length - 1 : args.size() != params.length) {
            problems.add(new Finding(line(call.getName()), column(call.getName()), "decide." + Vocabulary.signature(method)
                    + " takes " + (varargs ? "at least " + (params.length - 1) : String.valueOf(params.length))
                    + " value(s), not " + args.size()));
            return;
        }
        for (int i = 0; i < args.size(); i++) {
            Class<?> want = varargs && i >= params.length - 1 ? params[params.length - 1].getComponentType() : params[i];
            Object literal = Condition.literal(args.get(i));
            String wanted = Vocabulary.describe(want);
            String given = literal instanceof String ? "text" : literal instanceof java.math.BigDecimal ? "number"
                    : literal instanceof Boolean ? "yes/no" : null;
            if (given != null && !given.equals(wanted) && !(wanted.equals("list") && given.equals("text"))) {
                problems.add(new Finding(line(args.get(i)), column(args.get(i)), "decide." + Vocabulary.signature(method)
                        + " takes " + wanted + " here, not the " + given + " " + args.get(i)));
                return;
            }
        }
    }

    private Class<?> check(Expression e) {
        if (vocabulary == null) {
            return ExpressionCheck.VALUE;
        }
        int[] at = {line(e), column(e)};
        return new ExpressionCheck(vocabulary, names, null, findings, at[0], at[1]).check(e);
    }

    /** A local's name stands for the expression it was declared with. */
    private Expression resolve(Expression e) {
        return e instanceof NameExpr n && locals.containsKey(n.getNameAsString()) ? locals.get(n.getNameAsString()) : e;
    }

    /** The decision API as an analyst reads it: {@code decide.primary(text, ...), decide.store()}. */
    private String api() {
        return vocabulary == null ? "decide.<decision>(...)"
                : String.join(", ", vocabulary.decisions().values().stream().map(m -> "decide." + Vocabulary.signature(m)).toList());
    }

    private void refuse(Node n, String message) {
        findings.add(new Finding(line(n), column(n), message));
    }

    private int line(Node n) {
        return n.getBegin().map(this::line).orElse(firstLine);
    }

    private int column(Node n) {
        return n.getBegin().map(this::column).orElse(firstColumn);
    }

    private int line(Position p) {
        return firstLine + p.line - 1;
    }

    /** The "{" the block was wrapped in shifts the first line by one column. */
    private int column(Position p) {
        return p.line == 1 ? firstColumn + p.column - 2 : p.column;
    }
}
