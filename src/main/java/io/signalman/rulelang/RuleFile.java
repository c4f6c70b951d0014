package io.signalman.rulelang;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.GlobalDescr;
import org.drools.drl.ast.descr.ImportDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;

/**
 * The platform's one reader of DRL: Drools' own parser for the file ({@link PackageDescr}), its
 * expression parser for constraints and JavaParser for consequences. Given a pack's
 * {@link Vocabulary}, it also enforces the rule language (rules/README.md, "What a rule may
 * say"): imports of the pack's facts only, the one {@code decide} global, no functions, types,
 * queries or timers, and the condition and consequence checks of {@link ConditionReader} and
 * {@link ConsequenceReader}. Without one, it only reads (for packs that look up their own rules).
 *
 * <p>Every finding carries the line it is about; a file that does not parse has only its
 * syntax errors ({@link DrlSyntax} places a missing parenthesis on the line that lacks it).
 */
public final class RuleFile {

    /** Rule attributes the language allows; timers and calendars run rules later, on other threads. */
    private static final Set<String> ATTRIBUTES = Set.of("salience", "agenda-group", "activation-group", "ruleflow-group",
            "no-loop", "lock-on-active", "enabled", "date-effective", "date-expires", "dialect");

    private static final Set<String> GROUPS = Set.of("agenda-group", "activation-group", "ruleflow-group");
    private static final Set<String> ANNOTATIONS = Set.of("reason", "name");
    private static final java.util.regex.Pattern SALIENCE = java.util.regex.Pattern.compile("-?[0-9]{1,9}");
    private static final java.util.regex.Pattern GROUP = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9 _.:-]{0,99}");
    private static final java.util.regex.Pattern DATE = java.util.regex.Pattern.compile("[0-9A-Za-z][0-9A-Za-z :.+-]{0,39}");
    private static final java.util.regex.Pattern PACKAGE = java.util.regex.Pattern.compile("signalman(\\.[a-z][a-z0-9]*)+");

    private final String text;
    /** Where each line of {@code text} starts, read at the first rule that needs it. */
    private LineStarts lines;
    private final PackageDescr descr;
    private final List<Finding> syntaxErrors = new ArrayList<>();
    private final List<Finding> errors = new ArrayList<>();
    private final List<RuleReading> rules = new ArrayList<>();

    private RuleFile(String text, PackageDescr descr) {
        this.text = text;
        this.descr = descr;
    }

    /** Reads one DRL file; {@code vocabulary} null to read without enforcing the language. */
    public static RuleFile read(String text, Vocabulary vocabulary) {
        if (text.length() > TextBounds.MAX_FILE_CHARS) {
            RuleFile f = new RuleFile(text, null);
            f.syntaxErrors.add(new Finding(1, 1, TextBounds.fileTooLarge(text.length())));
            return f;
        }
        // Before any parser: text the compiler would read differently from the checker is refused
        // whole, so nothing below ever judges a text the compiler sees otherwise.
        List<Finding> unreadable = SourceText.check(text);
        if (!unreadable.isEmpty()) {
            RuleFile f = new RuleFile(text, null);
            f.syntaxErrors.addAll(unreadable);
            return f;
        }
        DrlParser parser = new DrlParser();
        PackageDescr descr;
        try {
            descr = parser.parse(false, text);
        } catch (DroolsParserException e) {
            RuleFile f = new RuleFile(text, null);
            f.syntaxErrors.add(new Finding(1, 0, Syntax.plain(e.getMessage())));
            return f;
        }
        if (parser.hasErrors() || descr == null) {
            RuleFile f = new RuleFile(text, null);
            f.syntaxErrors.addAll(DrlSyntax.explain(text, parser.getErrors()));
            return f;
        }
        if (descr.getRules().size() > TextBounds.MAX_RULES_PER_FILE) {
            RuleFile f = new RuleFile(text, null);
            f.syntaxErrors.add(new Finding(Math.max(descr.getRules().get(TextBounds.MAX_RULES_PER_FILE).getLine(), 1), 1,
                    TextBounds.tooManyRules(descr.getRules().size())));
            return f;
        }
        RuleFile f = new RuleFile(text, descr);
        if (vocabulary != null) {
            f.declarations(vocabulary);
        }
        for (RuleDescr r : descr.getRules()) {
            f.rules.add(f.rule(r, vocabulary));
        }
        return f;
    }

    public String text() {
        return text;
    }

    /** Drools' parse of the file; null when it does not parse. */
    public PackageDescr descr() {
        return descr;
    }

    public boolean parsed() {
        return descr != null;
    }

    public List<Finding> syntaxErrors() {
        return List.copyOf(syntaxErrors);
    }

    /** What the file says that the rule language does not allow. */
    public List<Finding> errors() {
        return List.copyOf(errors);
    }

    /** Every rule, in file order. */
    public List<RuleReading> rules() {
        return List.copyOf(rules);
    }

    private void declarations(Vocabulary v) {
        String pkg = descr.getName() == null ? "" : descr.getName();
        if (!PACKAGE.matcher(pkg).matches()) {
            refuse(descr, "the package \"" + pkg + "\" must be signalman.<words> in lower case "
                    + "(package signalman.broker;): the rules are compiled into that Java package");
        }
        for (ImportDescr i : descr.getImports()) {
            if (!v.importable().contains(i.getTarget())) {
                refuse(i, "imports " + i.getTarget() + ", which is not one of this pack's facts; a rule file may import "
                        + String.join(", ", v.importable()) + Suggest.didYouMean(i.getTarget(), v.importable()));
            }
        }
        descr.getFunctionImports().forEach(i -> refuse(i, "imports the function " + i.getTarget()
                + "; rules cannot call Java functions"));
        descr.getAccumulateImports().forEach(i -> refuse(i, "imports an accumulate function; accumulate is not part of the rule language"));
        descr.getFunctions().forEach(fn -> refuse(fn, "declares the function " + fn.getName()
                + "; functions are Java code, which rules may not hold (put a test on the pack's facts, in its Java package)"));
        descr.getTypeDeclarations().forEach(t -> refuse(t, "declares the type " + t.getTypeName()
                + "; a pack's facts are declared in its Java package"));
        descr.getEnumDeclarations().forEach(t -> refuse(t, "declares the enum " + t.getTypeName()
                + "; a pack's facts are declared in its Java package"));
        descr.getEntryPointDeclarations().forEach(t -> refuse(t, "declares an entry point; rules see the pack's facts only"));
        descr.getWindowDeclarations().forEach(t -> refuse(t, "declares a window; rules see the pack's facts only"));
        for (GlobalDescr g : descr.getGlobals()) {
            if (!g.getIdentifier().equals(Vocabulary.GLOBAL) || !g.getType().equals(v.decideType().getName())) {
                refuse(g, "declares the global " + g.getIdentifier() + " of type " + g.getType()
                        + "; a rule file has exactly one global: global " + v.decideType().getName() + " " + Vocabulary.GLOBAL + ";");
            }
        }
        for (AttributeDescr a : descr.getAttributes()) {
            attribute(a, a);
        }
        if (descr.getUnit() != null) {
            refuse(descr.getUnit(), "declares a rule unit; packs are not rule units");
        }
    }

    private RuleReading rule(RuleDescr r, Vocabulary v) {
        List<Finding> found = new ArrayList<>();
        if (v != null) {
            if (r.isQuery()) {
                refuse(r, "\"" + r.getName() + "\" is a query; a pack holds rules only");
            }
            if (!r.getNamedConsequences().isEmpty()) {
                refuse(r, "rule \"" + r.getName() + "\" has named consequences (then[...]); a rule has one consequence");
            }
            r.getAttributes().values().forEach(a -> attribute(a, r));
            name(r);
            r.getAnnotations().forEach(a -> annotation(a, r));
        }
        ConditionReader.Read when = ConditionReader.read(r, v, found);
        List<DecideCall> calls = List.of();
        if (r.getConsequence() != null) {
            String code = String.valueOf(r.getConsequence());
            int[] at = consequenceStart(r);
            calls = ConsequenceReader.read(code.stripLeading(), at[0], at[1], v, when.bindings(), found);
        }
        if (v != null) {
            found.forEach(f -> errors.add(new Finding(f.line(), f.column(), "rule \"" + r.getName() + "\": " + f.message())));
        }
        return new RuleReading(r, when.patterns(), calls, when.opaque());
    }

    /**
     * Every attribute is a plain value of its own kind: Drools copies attribute values into the
     * Java it compiles (a salience may even be an expression there), so nothing else is read.
     */
    private void attribute(AttributeDescr a, BaseDescr rule) {
        BaseDescr where = a.getLine() > 0 ? a : rule;
        String of = rule instanceof RuleDescr r ? "rule \"" + r.getName() + "\": " : "";
        String raw = a.getValue() == null ? "" : a.getValue().strip();
        String value = unquote(raw);
        String name = a.getName();
        if (!ATTRIBUTES.contains(name)) {
            refuse(where, of + "the attribute " + name + " is not part of the rule language; rules may say "
                    + String.join(", ", new java.util.TreeSet<>(ATTRIBUTES)));
        } else if (name.equals("salience") && !SALIENCE.matcher(raw).matches()) {
            refuse(where, of + "salience must be a whole number, not \"" + raw + "\": the firing order is read from the file");
        } else if (name.equals("dialect") && !value.equals("java")) {
            refuse(where, of + "dialect " + raw + " is not part of the rule language; consequences are written as calls of decide");
        } else if (Set.of("enabled", "no-loop", "lock-on-active").contains(name) && !Set.of("", "true", "false").contains(raw)) {
            refuse(where, of + name + " must be true or false, not " + raw);
        } else if (GROUPS.contains(name) && !GROUP.matcher(value).matches()) {
            refuse(where, of + name + " names a group in double quotes, with letters, digits, spaces and . _ : - only, not " + raw);
        } else if (name.startsWith("date-") && !DATE.matcher(value).matches()) {
            refuse(where, of + name + " is a date in double quotes (\"01-Jan-2027\"), not " + raw);
        }
    }

    /** A rule's name is a sentence; it is also copied into the compiled Java, in text and in a comment. */
    private void name(RuleDescr r) {
        String n = r.getName() == null ? "" : r.getName();
        if (n.isBlank() || n.contains("\"") || n.contains("\\") || n.contains("/*") || n.contains("*/")
                || n.chars().anyMatch(c -> c < 0x20)) {
            refuse(r, "a rule's name is a sentence in double quotes; it may not be empty or hold \", \\, /* or */ "
                    + "(the name is copied into the Java the rules are compiled to)");
        }
    }

    /** The annotations the packs read ({@code @reason}, dispatch's {@code @name}), each one plain text. */
    private void annotation(org.drools.drl.ast.descr.AnnotationDescr a, RuleDescr r) {
        BaseDescr where = a.getLine() > 0 ? a : r;
        if (!ANNOTATIONS.contains(a.getName())) {
            refuse(where, "rule \"" + r.getName() + "\": the annotation @" + a.getName() + " is not part of the rule language; "
                    + "a rule may carry " + String.join(", ", ANNOTATIONS.stream().map(x -> "@" + x).sorted().toList()));
            return;
        }
        Object single = a.getValueMap().size() == 1 ? a.getValueMap().get(org.drools.drl.ast.descr.AnnotationDescr.VALUE) : null;
        String raw = single == null ? "" : single.toString().strip();
        String inner = raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"") ? raw.substring(1, raw.length() - 1) : null;
        if (inner == null || inner.contains("\"") || inner.contains("\\")) {
            refuse(where, "rule \"" + r.getName() + "\": @" + a.getName() + " takes one text in double quotes, without \" or \\ "
                    + "inside (@" + a.getName() + "(\"...\"))");
        }
    }

    /**
     * Line and column where the consequence's text starts: after the {@code then} keyword of the
     * line Drools reports, past the white space the parser drops.
     */
    private int[] consequenceStart(RuleDescr r) {
        if (lines == null) {
            lines = LineStarts.of(text);
        }
        int offset = lines.offset(Math.max(r.getConsequenceLine(), 1));
        int then = text.indexOf("then", offset);
        int at = then < 0 ? offset : then + 4;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        return new int[] {lines.lineOf(at), at - lineStart + 1};
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private void refuse(BaseDescr d, String message) {
        errors.add(new Finding(Math.max(d.getLine(), 1), Math.max(d.getColumn(), 0) + 1, message));
    }
}
