package io.signalman.engine;

import io.signalman.engine.tables.DecisionTable;
import io.signalman.rulelang.LineStarts;
import io.signalman.rulelang.RuleFile;
import io.signalman.rulelang.RuleReading;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * Reads a pack's DRL sources into {@link RuleInfo}s; {@link RuleLint} then checks the conventions
 * every pack shares. Lint errors refuse the bundle exactly as compile errors do, so {@code make check}
 * and the server accept the same bundles; warnings are reported and do not refuse.
 */
final class DrlIndex {

    private final List<RuleInfo> rules = new ArrayList<>();
    private final List<ParsedRule> parsed = new ArrayList<>();
    private final List<BundleError> errors = new ArrayList<>();
    private boolean unparsable;
    private boolean refused;
    private final List<BundleError> warnings = new ArrayList<>();
    private final Map<String, String> packages = new HashMap<>();
    private final List<Consequence> consequences = new ArrayList<>();
    private final Map<String, DrlFile> files = new java.util.LinkedHashMap<>();
    private final Map<String, RuleFile> readings = new HashMap<>();
    private Map<String, DecisionTable> tables = Map.of();
    private io.signalman.rulelang.Vocabulary vocabulary;

    /**
     * A rule's consequence as written, to map Java errors in generated code back to the DRL.
     *
     * @param code the consequence with whitespace removed (the generated Java reformats it)
     * @param raw  the consequence as written, from its first non-blank character, which is on {@code line}
     */
    record Consequence(RuleInfo rule, String code, String raw, int line) {

        /**
         * The DRL line of a failing statement: the generated line is found in the consequence
         * (whitespace aside), then narrowed to the line naming {@code identifier} if one is given.
         * Falls back to the {@code then} line.
         */
        int lineOf(String generatedLine, String identifier) {
            String needle = squash(generatedLine);
            int[] rawAt = new int[raw.length()];
            StringBuilder squashed = new StringBuilder();
            for (int i = 0; i < raw.length(); i++) {
                if (!Character.isWhitespace(raw.charAt(i))) {
                    rawAt[squashed.length()] = i;
                    squashed.append(raw.charAt(i));
                }
            }
            int at = needle.isEmpty() ? -1 : squashed.indexOf(needle);
            if (at < 0) {
                return line;
            }
            int start = rawAt[at];
            int end = rawAt[Math.min(at + needle.length(), squashed.length()) - 1];
            if (identifier != null) {
                int named = raw.indexOf(identifier, start);
                if (named >= 0 && named <= end) {
                    start = named;
                }
            }
            return line + (int) raw.substring(0, start).chars().filter(c -> c == '\n').count();
        }
    }

    private DrlIndex() {
    }

    /**
     * Where in a consequence the Java does not parse, for a rule whose errors Drools reports at
     * the rule's first line: the consequence is parsed with JavaParser, and its first problem is
     * put at its own line of the DRL file. Empty when the consequence parses.
     */
    java.util.Optional<BundleError> consequenceSyntaxError(String file, int ruleLine, String message) {
        for (Consequence c : consequences) {
            if (c.rule().file().equals(file) && c.rule().line() == ruleLine) {
                var parsed = new com.github.javaparser.JavaParser().parseBlock("{" + c.raw() + "\n}");
                if (parsed.isSuccessful()) {
                    return java.util.Optional.empty();
                }
                return parsed.getProblems().stream().findFirst().flatMap(p -> p.getLocation())
                        .flatMap(l -> l.getBegin().getRange()).map(r -> new BundleError(file, c.line() + r.begin.line - 1,
                                r.begin.line == 1 ? 0 : r.begin.column, "in the consequence of rule \"" + c.rule().name()
                                + "\": " + message));
            }
        }
        return java.util.Optional.empty();
    }

    /** Indexes the pack's DRL files, given in sorted path order. */
    static DrlIndex of(PackDefinition pack, Map<String, byte[]> drlFiles) {
        return of(pack, drlFiles, Map.of());
    }

    /**
     * Indexes DRL files and the DRL read from decision tables (by the table's path); a rule from a
     * table is at its row, so every message and explanation points into the spreadsheet.
     */
    static DrlIndex of(PackDefinition pack, Map<String, byte[]> drlFiles, Map<String, DecisionTable> tables) {
        DrlIndex index = read(pack, drlFiles, tables);
        index.lint(pack);
        return index;
    }

    /**
     * {@link #of} without the lint: the rule reader's reading of every file, which must come before
     * anything is compiled, so that the lint (which only reads the rules) can run while the units
     * compile ({@link #lint}).
     */
    static DrlIndex read(PackDefinition pack, Map<String, byte[]> drlFiles, Map<String, DecisionTable> tables) {
        DrlIndex index = new DrlIndex();
        index.tables = tables;
        index.vocabulary = pack.vocabulary();
        if (index.vocabulary == null) {
            // Fail closed: without a vocabulary the reader could not tell a fact from the file system.
            index.unparsable = true;
            drlFiles.keySet().forEach(f -> index.errors.add(new BundleError(f, 0, 0, "pack " + pack.name()
                    + " declares no rule vocabulary, so its rules cannot be checked; none is compiled")));
            return index;
        }
        Map<String, RuleInfo> byName = new HashMap<>();
        for (Map.Entry<String, byte[]> file : drlFiles.entrySet()) {
            index.indexFile(pack, file.getKey(), new String(file.getValue(), StandardCharsets.UTF_8), byName);
        }
        return index;
    }

    /**
     * The conventions every pack shares and the conditions that can never or always match
     * ({@link RuleLint}, {@link ConditionLint}), added to {@link #errors} and {@link #warnings}. It
     * only reads what {@link #read} read, so compile threads may use the index meanwhile; once.
     */
    void lint(PackDefinition pack) {
        if (vocabulary != null) {
            new RuleLint(pack, parsed, errors, warnings).run();
            new ConditionLint(pack, parsed, errors, warnings).run();
        }
    }

    /** The rule reader's reading of each DRL file that parsed, by path. */
    Map<String, RuleFile> readings() {
        return readings;
    }

    List<RuleInfo> rules() {
        return List.copyOf(rules);
    }

    /** The pack's vocabulary, which the compiled rules are checked against again and linked with. */
    io.signalman.rulelang.Vocabulary vocabulary() {
        return vocabulary;
    }

    List<ParsedRule> parsed() {
        return List.copyOf(parsed);
    }

    List<BundleError> errors() {
        return List.copyOf(errors);
    }

    /**
     * True when the compiler must not see the files: one did not parse (the compiler would only
     * repeat the parser's errors), or one says what the rule language does not allow (its code
     * is never compiled, and the compiler's Java errors would only repeat the reader's).
     */
    boolean unparsable() {
        return unparsable || refused;
    }

    List<BundleError> warnings() {
        return List.copyOf(warnings);
    }

    /** Every file that parsed, in sorted path order, as compile units see it. */
    Map<String, DrlFile> files() {
        return files;
    }

    /** The DRL package each file declares (empty string for none). */
    Map<String, String> packages() {
        return packages;
    }

    /**
     * The rule whose consequence is the given Java code, found by comparing the code with
     * whitespace removed (the executable model copies the consequence into generated Java).
     */
    java.util.Optional<Consequence> consequenceIn(String generatedJava) {
        String haystack = squash(generatedJava);
        return consequences.stream().filter(c -> !c.code().isEmpty() && haystack.contains(c.code()))
                .max(java.util.Comparator.comparingInt(c -> c.code().length()));
    }

    /**
     * The 1-based line where {@code code} first appears at or after line {@code from}, else
     * {@code from}; {@code lines} of {@code text} are read once per file.
     */
    private static int lineOfText(String text, LineStarts lines, String code, int from) {
        String firstLine = code.lines().findFirst().orElse("").strip();
        if (firstLine.isEmpty() || from < 1 || from > lines.lines()) {
            return from;
        }
        int at = text.indexOf(firstLine, lines.offset(from));
        return at < 0 ? from : lines.lineOf(at);
    }

    /** The text without white space (the generated Java reformats a consequence). */
    private static String squash(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.chars().filter(c -> !Character.isWhitespace(c)).forEach(c -> out.append((char) c));
        return out.toString();
    }

    private void indexFile(PackDefinition pack, String file, String text, Map<String, RuleInfo> byName) {
        RuleFile read = RuleFile.read(text, pack.vocabulary());
        // The DRL read from a decision table is reported at the table's rows, not its own lines.
        DecisionTable table = tables.get(file);
        if (!read.parsed()) {
            unparsable = true;
            if (table != null || !recover(pack, file, text, byName)) {
                read.syntaxErrors().forEach(f -> errors.add(table == null ? new BundleError(file, f.line(), f.column(), f.message())
                        : new BundleError(file, table.row(f.line()), 0, f.message())));
            }
            return;
        }
        if (!read.errors().isEmpty()) {
            refused = true;
            read.errors().forEach(f -> errors.add(table == null ? new BundleError(file, f.line(), f.column(), f.message())
                    : new BundleError(file, table.row(f.line()), 0, f.message())));
        }
        readings.put(file, read);
        PackageDescr descr = read.descr();
        packages.put(file, descr.getName() == null ? "" : descr.getName());
        files.put(file, DrlFile.of(file, text, descr));
        indexRules(pack, file, text, read, byName);
    }

    /** A line that starts a rule: {@code rule "name"} or {@code rule name}, at the start of its line. */
    private static final java.util.regex.Pattern RULE_START = java.util.regex.Pattern.compile("^\\s*rule\\s+[\"\\w]");

    /**
     * A file that does not parse, read again rule by rule so that one syntax error hides nothing
     * else in it: the header (package, imports, globals: everything before the first rule) with
     * each rule alone, the other lines blanked so that every line keeps its number. The rules that
     * read are indexed, so the lint and the pack's checks judge them (a misspelt recipient further
     * down is reported with the missing parenthesis above it); each rule that does not read gives
     * its own syntax errors. The file still compiles nothing. False, and nothing added, when the
     * header alone does not read or the file has no rule to split at: the parser's own errors stand.
     */
    private boolean recover(PackDefinition pack, String file, String text, Map<String, RuleInfo> byName) {
        String[] lines = text.split("\n", -1);
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (RULE_START.matcher(lines[i]).find()) {
                starts.add(i);
            }
        }
        if (starts.isEmpty() || !RuleFile.read(only(lines, starts.get(0), -1, -1), pack.vocabulary()).parsed()) {
            return false;
        }
        List<BundleError> found = new ArrayList<>();
        List<RuleFile> read = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            int from = starts.get(k);
            int to = k + 1 < starts.size() ? starts.get(k + 1) : lines.length;
            String alone = only(lines, starts.get(0), from, to);
            RuleFile one = RuleFile.read(alone, pack.vocabulary());
            if (!one.parsed()) {
                one.syntaxErrors().forEach(f -> found.add(new BundleError(file, f.line(), f.column(), f.message())));
                continue;
            }
            one.errors().forEach(f -> found.add(new BundleError(file, f.line(), f.column(), f.message())));
            read.add(one);
        }
        if (found.isEmpty()) {
            return false; // each rule reads alone, so the error is between them: the parser's own words say it best
        }
        errors.addAll(found);
        for (RuleFile one : read) {
            indexRules(pack, file, one.text(), one, byName);
        }
        return true;
    }

    /** The header (lines before {@code header}) and lines {@code from..to-1}; every other line blank. */
    private static String only(String[] lines, int header, int from, int to) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            if (i < header || (i >= from && i < to)) {
                out.append(lines[i]);
            }
        }
        return out.toString();
    }

    private void indexRules(PackDefinition pack, String file, String text, RuleFile read, Map<String, RuleInfo> byName) {
        LineStarts starts = LineStarts.of(text);
        for (RuleReading reading : read.rules()) {
            RuleDescr r = reading.descr();
            RuleInfo info = describe(pack, file, r);
            if (info == null) {
                continue;
            }
            if (r.getConsequence() != null) {
                String raw = r.getConsequence().toString().stripLeading();
                consequences.add(new Consequence(info, squash(raw), raw, lineOfText(text, starts, raw, r.getConsequenceLine())));
            }
            RuleInfo previous = byName.putIfAbsent(info.name(), info);
            if (previous != null) {
                errors.add(at(info, "duplicate rule name \"" + info.name() + "\", also at "
                        + previous.file() + ":" + previous.line() + "; give each rule its own sentence"));
                continue;
            }
            rules.add(info);
            parsed.add(new ParsedRule(info, r, reading));
        }
    }

    private RuleInfo describe(PackDefinition pack, String file, RuleDescr r) {
        DecisionTable table = tables.get(file);
        int line = table == null ? r.getLine() : table.row(r.getLine());
        int column = table == null ? r.getColumn() + 1 : 1;
        String agendaGroup = attribute(r, "agenda-group");
        if (agendaGroup == null) {
            agendaGroup = attribute(r, "ruleflow-group");
        }
        String activationGroup = attribute(r, "activation-group");
        String salienceText = attribute(r, "salience");
        int salience = 0;
        if (salienceText != null) {
            try {
                salience = Integer.parseInt(salienceText.trim());
            } catch (NumberFormatException e) {
                // The rule reader refused it ("salience must be a whole number"); nothing compiles.
            }
        }
        int phaseIndex = phaseOf(pack, agendaGroup);
        if (phaseIndex < 0) {
            boolean tiered = pack.phases().stream().filter(Phase::decides).count() > 1;
            errors.add(new BundleError(file, line, column, "rule \"" + r.getName() + "\" "
                    + (agendaGroup == null ? (tiered ? "has no tier" : "has no agenda-group")
                    : "is in agenda-group \"" + agendaGroup + "\", which pack " + pack.name() + " never focuses")
                    + "; use agenda-group " + String.join(" or ", groups(pack))));
            return null;
        }
        Phase phase = pack.phases().get(phaseIndex);
        AnnotationDescr reasonAnn = r.getAnnotation("reason");
        String reason = reasonAnn == null ? null : reasonAnn.getSingleValueAsString();
        if (reason != null) {
            reason = unquote(reason);
        }
        RuleInfo info = new RuleInfo(pack.name(), r.getName(), file, line, column, salience, agendaGroup,
                activationGroup, reason, rules.size(), phaseIndex, phase.kind());
        return info;
    }

    private static int phaseOf(PackDefinition pack, String agendaGroup) {
        String group = agendaGroup == null ? "MAIN" : agendaGroup;
        for (int i = 0; i < pack.phases().size(); i++) {
            if (pack.phases().get(i).agendaGroup().equals(group)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> groups(PackDefinition pack) {
        return pack.phases().stream().map(p -> "\"" + p.agendaGroup() + "\"").toList();
    }

    private static String attribute(RuleDescr r, String name) {
        AttributeDescr a = r.getAttributes().get(name);
        return a == null ? null : unquote(a.getValue());
    }

    private static String unquote(String s) {
        String t = s.trim();
        if (t.length() >= 2 && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'"))) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }

    private static BundleError at(RuleInfo r, String message) {
        return new BundleError(r.file(), r.line(), r.column(), message);
    }
}
