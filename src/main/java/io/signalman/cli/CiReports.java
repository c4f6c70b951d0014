package io.signalman.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import io.signalman.replay.ReplayGate;
import io.signalman.scenario.Mismatch;
import io.signalman.scenario.ScenarioReport;
import io.signalman.scenario.ScenarioResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reports {@code signalman check} and {@code signalman test} print for CI with
 * {@code --format json|junit|sarif} (docs/analysts.md, "Reports for CI"): SARIF 2.1.0 for code
 * scanning (GitHub, GitLab), JUnit XML for test reports, and JSON documented by
 * docs/schemas/check.schema.json and docs/schemas/test.schema.json.
 */
final class CiReports {

    /** The output formats of {@code check} and {@code test}. */
    enum Format {
        TEXT, JSON, JUNIT, SARIF;

        static Format of(String value) throws Args.UsageException {
            for (Format f : values()) {
                if (f.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return f;
                }
            }
            throw new Args.UsageException("--format is one of text, json, junit, sarif, not \"" + value + "\"");
        }
    }

    static final String SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

    /** The kinds of finding, each a SARIF reporting descriptor: id, level, what it means. */
    enum Kind {
        BUNDLE_ERROR("bundle-error", "error", "The rule bundle is refused: it does not read, compile or pass its checks"),
        LINT_WARNING("lint-warning", "warning", "The rule bundle loads, but a rule looks wrong (lint)"),
        SCENARIO_FAILURE("scenario-failure", "error", "A scenario's decision is not the one it expects"),
        SCENARIO_FILE_ERROR("scenario-file-error", "error", "A scenario file cannot be read as scenarios");

        final String id;
        final String level;
        final String description;

        Kind(String id, String level, String description) {
            this.id = id;
            this.level = level;
            this.description = description;
        }
    }

    /**
     * One finding located in the user's terms.
     *
     * @param file the path as shown from the working directory ({@code rules/signals/agents.drl})
     * @param line 1-based, or 0 when unknown
     * @param column 1-based, or 0 when unknown
     * @param rule the DRL rule the finding is in, or null when it is in none
     * @param properties extra facts (the scenario, its pack), shown in SARIF's {@code properties}
     */
    record Finding(Kind kind, String file, int line, int column, String message, String rule, Map<String, String> properties) {

        String severity() {
            return kind.level;
        }
    }

    private static final Pattern RULE = Pattern.compile("^\\s*rule\\s+(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'((?:[^'\\\\]|\\\\.)*)'|(\\S+))");
    private static final Pattern END = Pattern.compile("^\\s*end\\s*(//.*)?$");

    private CiReports() {
    }

    /**
     * A flag's value as the command line gives it (the last one), or null: {@code --format} and
     * {@code --output} are never read from the environment, so a {@code SIGNALMAN_OUTPUT} set for
     * something else cannot send a report elsewhere.
     */
    static String given(Args args, String name) {
        List<String> all = args.all(name);
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /**
     * Runs {@code report} on {@code out}, or with {@code --output FILE} on that file (written whole,
     * created or replaced); exit 1 when the file cannot be written.
     */
    static int to(String output, PrintStream out, PrintStream err, ToIntFunction<PrintStream> report) {
        if (output == null) {
            return report.applyAsInt(out);
        }
        Path file = Path.of(output);
        if (Files.isDirectory(file)) {
            err.println("signalman: --output " + output + " is a folder; name a file");
            return 1;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code;
        try (PrintStream p = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            code = report.applyAsInt(p);
        }
        try {
            Files.write(file, bytes.toByteArray());
        } catch (IOException e) {
            err.println("signalman: cannot write --output " + output + ": " + e.getMessage());
            return 1;
        }
        return code;
    }

    /** The path of {@code e}'s file as {@code check}'s text shows it: under {@code rules}, unless absolute. */
    static String shownFile(Path rules, String file) {
        Path p = Path.of(file);
        return ReplayGate.shown(p.isAbsolute() ? p : rules.resolve(p));
    }

    /**
     * The name of the DRL rule whose {@code rule ... end} block holds {@code line} of {@code file},
     * read from the bundle's own text; null when the file is no DRL, or the line is outside every
     * rule (a package line, an import).
     */
    static String ruleAt(BundleFiles files, String file, int line) {
        if (files == null || line <= 0 || !file.endsWith(".drl")) {
            return null;
        }
        String text = files.text(file).orElse(null);
        if (text == null) {
            return null;
        }
        String name = null;
        int n = 0;
        for (String l : text.lines().toList()) {
            n++;
            if (n > line) {
                break;
            }
            Matcher m = RULE.matcher(l);
            if (m.find()) {
                name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            } else if (END.matcher(l).matches() && n < line) {
                name = null;
            }
        }
        return name;
    }

    /** The findings of {@code errors}, each at its file (shown from the working directory) and rule. */
    static List<Finding> findings(Kind kind, Path rules, BundleFiles files, List<BundleError> errors) {
        List<Finding> out = new ArrayList<>();
        for (BundleError e : errors) {
            out.add(new Finding(kind, shownFile(rules, e.file()), e.line(), e.column(), e.message(),
                    ruleAt(files, e.file(), e.line()), Map.of()));
        }
        return out;
    }

    /** The findings of {@code test}: a finding per problem in a scenario file, and per failed scenario. */
    static List<Finding> findings(Path rules, ScenarioReport report) {
        List<Finding> out = new ArrayList<>(findings(Kind.SCENARIO_FILE_ERROR, rules, null, report.errors()));
        for (ScenarioResult r : report.failures()) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("scenario", r.scenario().name());
            props.put("pack", r.scenario().pack());
            String rule = decidingRule(r);
            out.add(new Finding(Kind.SCENARIO_FAILURE, shownFile(rules, r.scenario().file()), r.scenario().line(), 0,
                    "scenario \"" + r.scenario().name() + "\" fails: " + r.failure(), rule, props));
        }
        return out;
    }

    /** The rule that made a scenario's decision, when there was one. */
    static String decidingRule(ScenarioResult r) {
        return r.decision() != null && r.decision().hasNonNull("rule") ? r.decision().get("rule").asText() : null;
    }

    // ---------------------------------------------------------------- SARIF

    /** A SARIF 2.1.0 log of one run of signalman over {@code findings}. */
    static ObjectNode sarif(List<Finding> findings, List<Kind> kinds) {
        ObjectNode log = Json.object();
        log.put("$schema", SARIF_SCHEMA);
        log.put("version", "2.1.0");
        ObjectNode run = log.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "signalman");
        String version = version();
        if (version != null) {
            driver.put("version", version);
        }
        ArrayNode rules = driver.putArray("rules");
        Map<Kind, Integer> index = new LinkedHashMap<>();
        for (Kind k : kinds) {
            index.put(k, rules.size());
            ObjectNode d = rules.addObject();
            d.put("id", k.id);
            d.putObject("shortDescription").put("text", k.description);
            d.putObject("defaultConfiguration").put("level", k.level);
        }
        ArrayNode results = run.putArray("results");
        for (Finding f : findings) {
            ObjectNode r = results.addObject();
            r.put("ruleId", f.kind().id);
            Integer i = index.get(f.kind());
            if (i != null) {
                r.put("ruleIndex", i);
            }
            r.put("level", f.kind().level);
            r.putObject("message").put("text", f.message());
            ObjectNode location = r.putArray("locations").addObject();
            ObjectNode physical = location.putObject("physicalLocation");
            physical.putObject("artifactLocation").put("uri", uri(f.file()));
            if (f.line() > 0) {
                ObjectNode region = physical.putObject("region").put("startLine", f.line());
                if (f.column() > 0) {
                    region.put("startColumn", f.column());
                }
            }
            if (f.rule() != null) {
                location.putArray("logicalLocations").addObject().put("name", f.rule()).put("kind", "function");
            }
            if (f.rule() != null || !f.properties().isEmpty()) {
                ObjectNode props = r.putObject("properties");
                if (f.rule() != null) {
                    props.put("rule", f.rule());
                }
                f.properties().forEach(props::put);
            }
        }
        run.put("columnKind", "unicodeCodePoints");
        return log;
    }

    /**
     * A relative URI reference for a path shown from the working directory (a relative path,
     * percent-encoded where it must be), or a {@code file:} URI for an absolute one.
     */
    static String uri(String shown) {
        Path p = Path.of(shown);
        if (p.isAbsolute()) {
            return p.toUri().toString();
        }
        try {
            return new URI(null, null, shown.replace(java.io.File.separatorChar, '/'), null).getRawPath();
        } catch (URISyntaxException e) {
            return p.toUri().toString();
        }
    }

    /** The version in the jar's manifest, or null when run from classes (tests). */
    static String version() {
        return CiReports.class.getPackage() == null ? null : CiReports.class.getPackage().getImplementationVersion();
    }

    static void printJson(PrintStream out, ObjectNode doc) {
        try {
            out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- JSON of check

    /** {@code check --format json}: docs/schemas/check.schema.json. */
    static ObjectNode checkJson(boolean ok, String revision, long rules, int packs, List<Finding> errors, List<Finding> warnings) {
        ObjectNode n = Json.object();
        n.put("ok", ok);
        if (revision == null) {
            n.putNull("revision");
        } else {
            n.put("revision", revision);
        }
        n.put("rules", rules);
        n.put("packs", packs);
        n.set("errors", findingsJson(errors));
        n.set("warnings", findingsJson(warnings));
        return n;
    }

    private static ArrayNode findingsJson(List<Finding> findings) {
        ArrayNode a = Json.array();
        for (Finding f : findings) {
            ObjectNode o = a.addObject();
            o.put("file", f.file());
            o.put("line", f.line());
            o.put("column", f.column());
            o.put("severity", f.severity());
            o.put("message", f.message());
            if (f.rule() == null) {
                o.putNull("rule");
            } else {
                o.put("rule", f.rule());
            }
        }
        return a;
    }

    // ---------------------------------------------------------------- JUnit XML

    /**
     * {@code check --format junit}: one test suite, {@code signalman check}, with one test case per
     * file of the bundle that is not a scenario or a README (each DRL file, decision table and
     * reference data file), and one per other place an error names (a pack folder, the bundle);
     * a case fails with one {@code <failure>} per error at it. Warnings are the case's
     * {@code <system-out>}: they do not fail it.
     */
    static String checkJunit(List<String> files, List<Finding> errors, List<Finding> warnings) {
        Map<String, List<Finding>> errorsAt = new TreeMap<>();
        Map<String, List<Finding>> warningsAt = new TreeMap<>();
        List<String> cases = new ArrayList<>(files);
        for (Finding f : errors) {
            errorsAt.computeIfAbsent(f.file(), k -> new ArrayList<>()).add(f);
            if (!cases.contains(f.file())) {
                cases.add(f.file());
            }
        }
        for (Finding f : warnings) {
            warningsAt.computeIfAbsent(f.file(), k -> new ArrayList<>()).add(f);
            if (!cases.contains(f.file())) {
                cases.add(f.file());
            }
        }
        int failed = (int) cases.stream().filter(errorsAt::containsKey).count();
        Xml x = new Xml();
        x.open("testsuites", "name", "signalman check", "tests", cases.size(), "failures", failed, "errors", 0);
        x.open("testsuite", "name", "signalman check", "tests", cases.size(), "failures", failed, "errors", 0, "skipped", 0);
        for (String file : cases) {
            List<Finding> es = errorsAt.getOrDefault(file, List.of());
            List<Finding> ws = warningsAt.getOrDefault(file, List.of());
            if (es.isEmpty() && ws.isEmpty()) {
                x.empty("testcase", "name", file, "classname", "signalman.check");
                continue;
            }
            x.open("testcase", "name", file, "classname", "signalman.check");
            for (Finding f : es) {
                x.text("failure", located(f), "message", f.message(), "type", f.kind().id);
            }
            if (!ws.isEmpty()) {
                x.text("system-out", String.join("\n", ws.stream().map(CiReports::located).toList()));
            }
            x.close("testcase");
        }
        x.close("testsuite");
        x.close("testsuites");
        return x.toString();
    }

    /**
     * {@code test --format junit}: one test suite per pack, one test case per scenario (its class
     * name the scenario file), a {@code <failure>} with expected vs actual and why for a failed
     * one; a problem in a scenario file is a case of its own (the file) with an {@code <error>}.
     * A bundle that does not compile is one suite, {@code bundle}, whose one case errs per error.
     */
    static String testJunit(Path rules, ScenarioReport report) {
        Map<String, List<ScenarioResult>> byPack = new TreeMap<>();
        for (ScenarioResult r : report.results()) {
            byPack.computeIfAbsent(r.scenario().pack(), k -> new ArrayList<>()).add(r);
        }
        Map<String, Map<String, List<BundleError>>> badFiles = new TreeMap<>();
        for (BundleError e : report.errors()) {
            String pack = e.file().contains("/") ? e.file().substring(0, e.file().indexOf('/')) : e.file();
            badFiles.computeIfAbsent(pack, k -> new TreeMap<>()).computeIfAbsent(e.file(), k -> new ArrayList<>()).add(e);
            byPack.computeIfAbsent(pack, k -> new ArrayList<>());
        }
        int tests = 0;
        int failures = 0;
        int errors = 0;
        for (Map.Entry<String, List<ScenarioResult>> e : byPack.entrySet()) {
            tests += e.getValue().size() + badFiles.getOrDefault(e.getKey(), Map.of()).size();
            failures += (int) e.getValue().stream().filter(r -> !r.passed()).count();
            errors += badFiles.getOrDefault(e.getKey(), Map.of()).size();
        }
        Xml x = new Xml();
        x.open("testsuites", "name", "signalman test", "tests", tests, "failures", failures, "errors", errors);
        for (Map.Entry<String, List<ScenarioResult>> e : byPack.entrySet()) {
            Map<String, List<BundleError>> bad = badFiles.getOrDefault(e.getKey(), Map.of());
            int f = (int) e.getValue().stream().filter(r -> !r.passed()).count();
            x.open("testsuite", "name", e.getKey(), "tests", e.getValue().size() + bad.size(), "failures", f, "errors", bad.size(),
                    "skipped", 0);
            for (Map.Entry<String, List<BundleError>> b : bad.entrySet()) {
                String shown = shownFile(rules, b.getKey());
                x.open("testcase", "name", shown, "classname", shown);
                for (BundleError be : b.getValue()) {
                    x.text("error", shown + ":" + be.line() + ": " + be.message(), "message", be.message(), "type",
                            Kind.SCENARIO_FILE_ERROR.id);
                }
                x.close("testcase");
            }
            for (ScenarioResult r : e.getValue()) {
                String file = shownFile(rules, r.scenario().file());
                if (r.passed()) {
                    x.empty("testcase", "name", r.scenario().name(), "classname", file);
                    continue;
                }
                x.open("testcase", "name", r.scenario().name(), "classname", file);
                x.text("failure", failureText(file, r), "message", r.failure(), "type", Kind.SCENARIO_FAILURE.id);
                x.close("testcase");
            }
            x.close("testsuite");
        }
        x.close("testsuites");
        return x.toString();
    }

    /** {@code test --format junit} when the bundle does not compile: no scenario ran. */
    static String testJunitRefused(List<Finding> errors) {
        Xml x = new Xml();
        x.open("testsuites", "name", "signalman test", "tests", 1, "failures", 0, "errors", 1);
        x.open("testsuite", "name", "bundle", "tests", 1, "failures", 0, "errors", 1, "skipped", 0);
        x.open("testcase", "name", "the bundle compiles", "classname", "signalman.test");
        for (Finding f : errors) {
            x.text("error", located(f), "message", f.message(), "type", f.kind().id);
        }
        x.close("testcase");
        x.close("testsuite");
        x.close("testsuites");
        return x.toString();
    }

    /** What {@code signalman test} prints of a failure: where, each field expected vs actual, and why. */
    private static String failureText(String file, ScenarioResult r) {
        StringBuilder out = new StringBuilder(file).append(':').append(r.scenario().line()).append(": FAIL \"")
                .append(r.scenario().name()).append("\"\n");
        if (r.error() != null) {
            out.append(r.error()).append('\n');
        }
        for (Mismatch m : r.mismatches()) {
            out.append(m).append('\n');
        }
        String rule = decidingRule(r);
        if (rule != null && r.explanation().isEmpty()) {
            out.append("decided by \"").append(rule).append("\"\n");
        }
        if (!r.explanation().isEmpty()) {
            out.append(r.explanation().get(0)).append('\n').append("rules considered, in firing order:\n");
            r.explanation().subList(1, r.explanation().size()).forEach(l -> out.append("  ").append(l).append('\n'));
        }
        return out.toString();
    }

    static String located(Finding f) {
        return f.file() + ":" + f.line() + ":" + f.column() + ": " + f.severity() + ": " + f.message()
                + (f.rule() == null ? "" : " (rule \"" + f.rule() + "\")");
    }

    /** A small XML writer: escapes text and attributes, and drops characters XML 1.0 cannot hold. */
    static final class Xml {
        private final StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        private int depth;

        void open(String name, Object... attributes) {
            start(name, attributes);
            sb.append(">\n");
            depth++;
        }

        void empty(String name, Object... attributes) {
            start(name, attributes);
            sb.append("/>\n");
        }

        void text(String name, String text, Object... attributes) {
            start(name, attributes);
            sb.append('>');
            escape(text, false);
            sb.append("</").append(name).append(">\n");
        }

        void close(String name) {
            depth--;
            sb.append("  ".repeat(depth)).append("</").append(name).append(">\n");
        }

        private void start(String name, Object... attributes) {
            sb.append("  ".repeat(depth)).append('<').append(name);
            for (int i = 0; i < attributes.length; i += 2) {
                sb.append(' ').append(attributes[i]).append("=\"");
                escape(String.valueOf(attributes[i + 1]), true);
                sb.append('"');
            }
        }

        private void escape(String s, boolean attribute) {
            s.codePoints().forEach(c -> {
                switch (c) {
                    case '<' -> sb.append("&lt;");
                    case '>' -> sb.append("&gt;");
                    case '&' -> sb.append("&amp;");
                    case '"' -> sb.append(attribute ? "&quot;" : "\"");
                    case '\n' -> sb.append(attribute ? "&#10;" : "\n");
                    case '\r' -> sb.append("&#13;");
                    case '\t' -> sb.append(attribute ? "&#9;" : "\t");
                    default -> {
                        boolean legal = c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF;
                        sb.appendCodePoint(legal ? c : 0xFFFD);
                    }
                }
            });
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
