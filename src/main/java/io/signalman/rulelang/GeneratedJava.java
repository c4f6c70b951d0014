package io.signalman.rulelang;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The second reading of a rule, behind {@link RuleFile}: the Java that Drools' executable model
 * generated from a pack's rules, read as the Java compiler will read it ({@code \}{@code uXXXX}
 * escapes translated first), before the compiler sees it. A hole in the first reading must not
 * become code, so this one does not trust the rule text at all: every method the generated
 * code calls must be one Drools' code generator writes, or one the pack's vocabulary publishes;
 * every type it names must be Drools' model, a few JDK basics, the pack's vocabulary or a class
 * the generator declared; every name qualified by a package must name one of the packages
 * generated code names (so no word the rules made allowed, such as a package's or a local
 * variable's, reaches another package: {@code java.util.regex} with a rule package
 * {@code signalman.regex}); and it holds no statement or declaration the generator never writes
 * (loops, {@code try}, lambdas, anonymous or local classes, static initializers, arrays).
 *
 * <p>NOTE: the names are Drools 10.2.0's, read from what it generates for every construct the
 * rule language allows (the tests compile such a bundle for each pack). A Drools upgrade that
 * generates other names makes the check refuse correct rules, loudly, never accept wrong ones.
 */
public final class GeneratedJava {

    /** One thing the generated Java holds that the rule language never produces. */
    public record Problem(String path, int line, String message, Optional<String> rule) {
    }

    /** Methods Drools' generator calls: its model DSL, its comparison helpers, JDK basics it uses. */
    private static final Set<String> GENERATOR_METHODS = Set.of(
            // org.drools.modelcompiler.dsl.pattern.D and the builders it returns
            "alphaIndexedBy", "and", "attribute", "betaIndexedBy", "bind", "build", "declarationOf", "endAnd", "endOr",
            "eval", "execute", "exists", "expr", "forall", "from", "globalOf", "metadata", "not", "on", "or", "passive", "pattern",
            "reactOn", "rule", "watch",
            // org.drools.modelcompiler.util.EvaluationUtil
            "areNullSafeEquals", "areNumbersNullSafeEquals", "convertDate", "convertDateLocal", "convertDateTimeLocal",
            "greaterOrEqual", "greaterOrEqualNumbers", "greaterOrEqualStringsAsNumbers", "greaterThan", "greaterThanNumbers",
            "greaterThanStringsAsNumbers", "lessOrEqual", "lessOrEqualNumbers", "lessOrEqualStringsAsNumbers", "lessThan",
            "lessThanNumbers", "lessThanStringsAsNumbers", "notEquals", "string2Int", "toBigDecimal",
            // the generated classes' own members
            "add", "addRuleNames", "apply", "test", "getName", "getGlobals", "getTypeMetaDatas", "getRules", "getRulesList",
            "getQueries", "getEntryPoints", "getDomainClass", "getPropertiesSize", "getPropertyIndex", "getExpressionHash",
            "predicateInformation",
            // JDK and Drools utilities in generated code: lists, dates, the (linear) pattern of matches
            "asList", "emptyList", "appendPattern", "parseCaseInsensitive", "toFormatter", "getDateFormatMask", "parse",
            "atStartOfDay", "systemDefault", "compile", "matcher", "matches", "valueOf");

    /** Type names and package words the generated code may name, besides the vocabulary's and its own. */
    private static final Set<String> GENERATOR_WORDS = Set.of(
            "java", "lang", "util", "time", "format", "math", "org", "drools", "model", "modelcompiler", "dsl", "pattern",
            "functions", "operators", "compiler", "kie", "builder", "com", "google", "re2j", "io", "signalman",
            "String", "Object", "Class", "Integer", "Long", "Double", "Float", "Short", "Byte", "Boolean", "Character",
            "Number", "CharSequence", "Comparable", "Exception", "RuntimeException", "Override", "BigDecimal", "BigInteger",
            "List", "ArrayList", "Arrays", "Collections", "Collection", "Map", "Set", "Locale", "ENGLISH",
            "GregorianCalendar", "Date", "LocalDate", "LocalDateTime", "ZoneId", "DateTimeFormatter", "DateTimeFormatterBuilder",
            "D", "Index", "ConstraintType", "Rule", "Attribute", "Global", "Variable", "Model", "Query", "EntryPoint",
            "TypeMetaData", "DomainClassMetadata", "PredicateInformation", "HashedExpression", "DateUtils", "EvaluationUtil",
            "MaterializedLambda", "Pattern", "Matcher", "INSTANCE", "EXPRESSION_HASH", "DATE_TIME_FORMATTER",
            "InOperator", "ContainsOperator", "ExcludesOperator", "MemberOfOperator", "SoundsLikeOperator",
            "StringStartsWithOperator", "StringEndsWithOperator", "StringLengthWithOperator",
            // Index.ConstraintType and Rule.Attribute constants
            "EQUAL", "NOT_EQUAL", "GREATER_THAN", "GREATER_OR_EQUAL", "LESS_THAN", "LESS_OR_EQUAL", "RANGE", "UNKNOWN",
            "FORALL_SELF_JOIN", "SALIENCE", "AGENDA_GROUP", "ACTIVATION_GROUP", "RULEFLOW_GROUP", "NO_LOOP",
            "LOCK_ON_ACTIVE", "ENABLED", "DATE_EFFECTIVE", "DATE_EXPIRES", "_this");

    /** Names the generator derives from a hash, a rule's name, a binding or a fact type. */
    private static final Pattern GENERATED_NAME = Pattern.compile("(Rules[0-9A-F]{32}(RuleMethods[0-9]+)?"
            + "|DomainClassesMetadata[0-9A-F]{32}|Lambda(Predicate|Consequence|Extractor)[0-9A-F]{32}|P[0-9A-F]{2}"
            + "|(Block|Function|Predicate)[0-9]{1,2}|rule_[A-Za-z0-9_]+|var_[A-Za-z0-9_$]+|regexp_[0-9A-Fa-f]+"
            + "|[a-z][a-z0-9_]*_[A-Z][A-Za-z0-9]*_Metadata(_INSTANCE)?|\\$[A-Za-z_][A-Za-z0-9_]*)");

    /**
     * The packages generated code names classes of, besides the vocabulary's and the rules' own:
     * every qualified name that starts with a package must name one of these (or one under
     * {@code org.drools.model}), however each of its words came to be allowed on its own.
     */
    private static final Set<String> GENERATOR_PACKAGES = Set.of("java.lang", "java.util", "java.util.function", "java.math",
            "java.time", "java.time.format", "com.google.re2j", "org.drools.model", "org.drools.modelcompiler.dsl.pattern",
            "org.drools.modelcompiler.util", "org.drools.compiler.kie.builder", "org.drools.util");

    /** Kinds of code the generator writes; anything else (a loop, try, a lambda, an array, a cast) is refused. */
    private static final Set<String> KINDS = Set.of("CompilationUnit", "PackageDeclaration", "ImportDeclaration", "Name",
            "SimpleName", "ClassOrInterfaceDeclaration", "EnumDeclaration", "EnumConstantDeclaration", "FieldDeclaration",
            "MethodDeclaration", "Parameter", "InitializerDeclaration", "VariableDeclarator", "Modifier",
            "ClassOrInterfaceType", "PrimitiveType", "VoidType", "WildcardType", "ArrayType", "TypeParameter",
            "MarkerAnnotationExpr", "NormalAnnotationExpr", "SingleMemberAnnotationExpr", "MemberValuePair",
            "BlockStmt", "ExpressionStmt", "ReturnStmt", "ThrowStmt", "SwitchStmt", "SwitchEntry",
            "VariableDeclarationExpr", "MethodCallExpr", "FieldAccessExpr", "NameExpr", "ObjectCreationExpr", "ClassExpr",
            "BinaryExpr", "UnaryExpr", "EnclosedExpr", "ConditionalExpr", "CastExpr", "StringLiteralExpr",
            "IntegerLiteralExpr", "LongLiteralExpr", "DoubleLiteralExpr", "BooleanLiteralExpr", "NullLiteralExpr");

    /**
     * How the sources are parsed: at JavaParser's raw level, which runs no validator and no
     * post-processor after the parse (a quarter of the check's time at the Java 17 level). The
     * {@link #KINDS} allow-list makes the validator redundant here, and the compiler that follows
     * refuses what is not Java. The raw grammar reads two words as names where Java 17 reads them
     * as keywords: a {@code var} is then an unknown type and a {@code yield} an unknown call or no
     * Java at all, all refused. No {@code \}{@code u} escape is translated, because a source holding
     * one is refused before it is parsed: without one, the text the compiler reads is this text.
     */
    private static final ParserConfiguration JAVA = new ParserConfiguration()
            .setLanguageLevel(ParserConfiguration.LanguageLevel.RAW);

    private final Set<String> methods = new HashSet<>(GENERATOR_METHODS);
    private final Set<String> words = new HashSet<>(GENERATOR_WORDS);
    /** Packages a qualified name may name: the generator's, the vocabulary's and the rules' own. */
    private final Set<String> packages = new HashSet<>(GENERATOR_PACKAGES);
    private final Set<String> rulePackages = new HashSet<>();

    private GeneratedJava(Vocabulary vocabulary) {
        for (Class<?> c : vocabulary.classes()) {
            words.add(c.getSimpleName());
            words.addAll(List.of(c.getName().split("[.$]")));
            packages.add(c.getPackageName());
        }
        for (Class<?> c : vocabulary.classes()) {
            Vocabulary.tests(c).keySet().forEach(methods::add);
        }
        for (Class<?> value : List.of(String.class, Number.class, java.math.BigDecimal.class, Integer.class, Double.class,
                Long.class, List.class, Map.class)) {
            methods.addAll(Vocabulary.valueMethods(value));
        }
    }

    /**
     * Checks one build's generated sources (path to Java text), given the DRL packages they were
     * generated from; the problems, in path order, empty when every source is the generator's.
     */
    public static List<Problem> check(Vocabulary vocabulary, Set<String> drlPackages, Map<String, String> sources) {
        GeneratedJava g = new GeneratedJava(vocabulary);
        drlPackages.forEach(p -> g.words.addAll(List.of(p.split("\\."))));
        drlPackages.stream().filter(p -> !p.isEmpty()).forEach(g.rulePackages::add);
        return g.check(sources);
    }

    private List<Problem> check(Map<String, String> sources) {
        List<Problem> problems = new ArrayList<>();
        Set<String> types = new HashSet<>();
        Set<String> values = new HashSet<>();
        // One walk of each source: what it declares, what is wrong with it whatever the others declare,
        // and the names that are right only if some source declares them (judged once all are walked).
        List<Named> named = new ArrayList<>();
        JavaParser parser = new JavaParser(JAVA);
        for (Map.Entry<String, String> s : new java.util.TreeMap<>(sources).entrySet()) {
            int escape = s.getValue().indexOf("\\u");
            if (escape >= 0) {
                problems.add(new Problem(s.getKey(), lineOf(s.getValue(), escape), "a \\" + "u escape", Optional.empty()));
                continue;
            }
            ParseResult<CompilationUnit> parsed = parser.parse(s.getValue());
            if (!parsed.isSuccessful() || parsed.getResult().isEmpty()) {
                problems.add(new Problem(s.getKey(), 0, "Java that does not parse: " + parsed.getProblems(), Optional.empty()));
                continue;
            }
            String path = s.getKey();
            parsed.getResult().get().walk(n -> {
                declared(n, types, values);
                String what = judge(n);
                if (what == null) {
                    what = outsidePackages(n);
                }
                if (what != null) {
                    problems.add(problem(path, n, what));
                } else {
                    Named name = named(path, n);
                    if (name != null) {
                        named.add(name);
                    }
                }
            });
        }
        for (Named n : named) {
            if (!types.contains(n.word()) && (n.type() || !values.contains(n.word()))) {
                problems.add(problem(n.path(), n.node(), n.type() ? "the type " + ((ClassOrInterfaceType) n.node())
                        .getNameWithScope() : "the name " + n.word()));
            }
        }
        problems.sort(java.util.Comparator.comparing(Problem::path).thenComparingInt(Problem::line));
        return problems;
    }

    /** A type or a name in generated Java that only a declaration in the generated sources can make right. */
    private record Named(String path, Node node, String word, boolean type) {
    }

    private static Problem problem(String path, Node n, String what) {
        return new Problem(path, n.getBegin().map(p -> p.line).orElse(0), what, ruleOf(n));
    }

    private static void declared(Node n, Set<String> types, Set<String> values) {
        if (n instanceof TypeDeclaration<?> t) {
            types.add(t.getNameAsString());
        } else if (n instanceof EnumConstantDeclaration e) {
            values.add(e.getNameAsString());
        } else if (n instanceof VariableDeclarator v) {
            values.add(v.getNameAsString());
        } else if (n instanceof Parameter p) {
            values.add(p.getNameAsString());
        } else if (n instanceof MethodDeclaration m) {
            values.add(m.getNameAsString());
        }
    }

    /**
     * What is wrong with one node of generated Java whatever the sources declare, or null when the
     * generator writes such code (its names are judged by {@link #named}).
     */
    private String judge(Node n) {
        String kind = n.getClass().getSimpleName();
        if (!KINDS.contains(kind)) {
            return "code the rule compiler never writes (" + kind + ")";
        }
        if (n instanceof InitializerDeclaration i && i.isStatic()) {
            return "a static initializer";
        }
        if (n instanceof ObjectCreationExpr o && o.getAnonymousClassBody().isPresent()) {
            return "an anonymous class";
        }
        if (n instanceof MethodCallExpr m && !methods.contains(m.getNameAsString())
                && !GENERATED_NAME.matcher(m.getNameAsString()).matches()) {
            return "a call of " + m.getNameAsString() + "(...)";
        }
        return null;
    }

    /**
     * The type or name a node uses that is neither the generator's, the vocabulary's nor generated
     * by its naming scheme, so that it is right only where the generated sources declare it (a type
     * by a type declaration; a name by any declaration); null for any other node.
     */
    private Named named(String path, Node n) {
        if (n instanceof ClassOrInterfaceType t) {
            String name = t.getNameAsString();
            return words.contains(name) || GENERATED_NAME.matcher(name).matches() ? null : new Named(path, n, name, true);
        }
        String word = n instanceof NameExpr e ? e.getNameAsString() : n instanceof FieldAccessExpr f ? f.getNameAsString()
                : n instanceof Name q ? q.getIdentifier() : null;
        return word == null || words.contains(word) || GENERATED_NAME.matcher(word).matches() ? null
                : new Named(path, n, word, false);
    }

    /**
     * What is wrong with a qualified name that starts with a package (a name, a type or a field
     * access of words whose first starts with a small letter): the package must be one generated
     * code names, whatever its words are allowed for on their own (a rule's package or a local
     * variable can make any word a name); null for any other node. The words before the first
     * capitalised one are the package; all of them when none is (a package or an import of one).
     */
    private String outsidePackages(Node n) {
        List<String> chain = qualified(n);
        if (chain == null || chain.size() < 2 || !Character.isLowerCase(chain.get(0).charAt(0))
                || GENERATED_NAME.matcher(chain.get(0)).matches()) {
            return null;
        }
        int type = 0;
        while (type < chain.size() && !Character.isUpperCase(chain.get(type).charAt(0))) {
            type++;
        }
        String pkg = String.join(".", chain.subList(0, type));
        return packages.contains(pkg) || rulePackages.contains(pkg) || pkg.startsWith("org.drools.model.") ? null
                : "the package " + pkg;
    }

    /**
     * The words of the qualified name {@code n} ends, when {@code n} is the whole of one (no longer
     * name holds it as its qualifier or scope) and it is made of plain words; null otherwise.
     */
    private static List<String> qualified(Node n) {
        if (n instanceof Name name) {
            return words(name, Name.class, Name::getQualifier, Name::getIdentifier);
        }
        if (n instanceof ClassOrInterfaceType type) {
            return words(type, ClassOrInterfaceType.class, ClassOrInterfaceType::getScope, ClassOrInterfaceType::getNameAsString);
        }
        if (n instanceof FieldAccessExpr field) {
            if (field.getParentNode().orElse(null) instanceof FieldAccessExpr outer && outer.getScope() == field) {
                return null;
            }
            java.util.LinkedList<String> words = new java.util.LinkedList<>();
            com.github.javaparser.ast.expr.Expression at = field;
            while (at instanceof FieldAccessExpr f) {
                words.addFirst(f.getNameAsString());
                at = f.getScope();
            }
            if (!(at instanceof NameExpr root)) {
                return null; // a field of something computed: its words are judged one by one
            }
            words.addFirst(root.getNameAsString());
            return words;
        }
        return null;
    }

    /**
     * The words of a name or type made of a chain of its own kind ({@code a.b.C}: each link's
     * qualifier or scope the next), when {@code n} is the outermost link; null when it is inner.
     */
    private static <T extends Node> List<String> words(T n, Class<T> kind, java.util.function.Function<T, Optional<T>> inner,
                                                       java.util.function.Function<T, String> word) {
        Node parent = n.getParentNode().orElse(null);
        if (kind.isInstance(parent) && inner.apply(kind.cast(parent)).orElse(null) == n) {
            return null;
        }
        java.util.LinkedList<String> words = new java.util.LinkedList<>();
        for (T at = n; at != null; at = inner.apply(at).orElse(null)) {
            words.addFirst(word.apply(at));
        }
        return words;
    }

    /** The rule a node of generated Java was generated for, when the code says (a lambda's rule names, a rule method). */
    private static Optional<String> ruleOf(Node n) {
        Optional<MethodDeclaration> method = n.findAncestor(MethodDeclaration.class);
        Optional<CompilationUnit> cu = n.findCompilationUnit();
        List<Node> places = new ArrayList<>();
        method.ifPresent(places::add);
        cu.ifPresent(places::add);
        for (Node place : places) {
            for (MethodCallExpr call : place.findAll(MethodCallExpr.class)) {
                String name = call.getNameAsString();
                int at = name.equals("addRuleNames") ? 0 : name.equals("rule") && call.getArguments().size() == 2 ? 1 : -1;
                if (at >= 0 && call.getArguments().size() > at && call.getArgument(at) instanceof StringLiteralExpr s) {
                    return Optional.of(s.asString());
                }
            }
        }
        return Optional.empty();
    }

    private static int lineOf(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }
}
