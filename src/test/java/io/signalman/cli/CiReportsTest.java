package io.signalman.cli;

import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * {@code signalman check|test --format json|junit|sarif}: each report validates against its published
 * schema (SARIF 2.1.0, the Jenkins JUnit XSD, and docs/schemas/*.schema.json for our JSON; where each
 * published one comes from: src/test/resources/schemas/README.md), and names the error at its DRL
 * file, line and rule, and each scenario that failed at its file and line.
 */
class CiReportsTest {

    @TempDir
    static Path tmp;

    static Path broken;
    static Path failing;
    static int brokenLine;
    static int failingLine;
    static final String BROKEN_RULE = "critical messages go to openclaw and knox";
    static final String FAILING_SCENARIO = "a critical trade goes to openclaw and knox, and mission control and sentinel hear of it";

    @BeforeAll
    static void bundles() throws IOException {
        // A bundle whose critical rule's condition names a field messages do not have (line 18, inside the rule)
        broken = copyOfRules(tmp.resolve("broken"));
        Path drl = broken.resolve("broker/routing.drl");
        edit(drl, "Message( priority == \"critical\" )", "Message( priorty == \"critical\" )");
        brokenLine = lineOf(drl, "Message( priorty == ");
        // A bundle that compiles, whose first broker scenario expects knox no more, and with a scenario file of an unknown key
        failing = copyOfRules(tmp.resolve("failing"));
        Path scenarios = failing.resolve("broker/scenarios/routing.yaml");
        edit(scenarios, "primary_recipients: [openclaw, knox]", "primary_recipients: [openclaw]");
        failingLine = lineOf(scenarios, "name: " + FAILING_SCENARIO);
        Files.writeString(failing.resolve("broker/scenarios/bad.yaml"),
                "- name: a scenario with a key scenarios do not have\n  input: {}\n  expect: {}\n  colour: red\n");
    }

    // ------------------------------------------------------------------ check

    @Test
    void checkSarifPutsTheErrorAtItsDrlLineInItsRule() throws Exception {
        CliRunner.Result r = CliRunner.run("check", broken.toString(), "--format", "sarif");

        assertEquals(1, r.code(), r::toString);
        JsonNode log = valid(SARIF, r.out());
        JsonNode run = log.get("runs").get(0);
        assertEquals("signalman", run.at("/tool/driver/name").asText());
        JsonNode hit = resultAt(run, "broker/routing.drl", brokenLine);
        assertEquals("error", hit.get("level").asText(), hit::toString);
        assertEquals("bundle-error", hit.get("ruleId").asText());
        assertTrue(hit.at("/locations/0/physicalLocation/region/startColumn").asInt() > 0, hit::toString);
        assertTrue(hit.at("/message/text").asText().contains("priorty"), hit::toString);
        assertEquals(BROKEN_RULE, hit.at("/properties/rule").asText(), hit::toString);
        assertEquals(BROKEN_RULE, hit.at("/locations/0/logicalLocations/0/name").asText(), hit::toString);
        assertTrue(r.err().contains("the bundle is refused"), r::toString);
    }

    @Test
    void checkSarifOfAWarningIsAWarningInItsRule() throws Exception {
        // Given a bundle where two broker rules tie on salience (a lint warning), which still loads
        Path rules = copyOfRules(tmp.resolve("tie"));
        edit(rules.resolve("broker/routing.drl"), "salience 500", "salience 510");

        CliRunner.Result r = CliRunner.run("check", rules.toString(), "--format", "sarif");

        assertEquals(0, r.code(), r::toString);
        JsonNode results = valid(SARIF, r.out()).at("/runs/0/results");
        assertEquals(1, results.size(), r::toString);
        JsonNode w = results.get(0);
        assertEquals("warning", w.get("level").asText());
        assertEquals("lint-warning", w.get("ruleId").asText());
        String rule = w.at("/properties/rule").asText();
        assertTrue(w.at("/message/text").asText().contains(rule) && !rule.isEmpty(), w::toString);
    }

    @Test
    void checkJsonIsDocumentedAndLocatesTheError() throws Exception {
        CliRunner.Result r = CliRunner.run("check", broken.toString(), "--format", "json");

        assertEquals(1, r.code(), r::toString);
        JsonNode doc = valid(CHECK_JSON, r.out());
        assertEquals(false, doc.get("ok").asBoolean());
        JsonNode error = only(doc.get("errors"), "routing.drl", brokenLine);
        assertEquals(BROKEN_RULE, error.get("rule").asText());
        assertEquals("error", error.get("severity").asText());

        CliRunner.Result ok = CliRunner.run("check", "rules", "--format=json");
        assertEquals(0, ok.code(), ok::toString);
        JsonNode okDoc = valid(CHECK_JSON, ok.out());
        assertTrue(okDoc.get("ok").asBoolean());
        assertTrue(okDoc.get("revision").asText().startsWith("sha256:"), ok::toString);
        assertTrue(okDoc.get("rules").asInt() > 0 && okDoc.get("errors").isEmpty(), ok::toString);
    }

    @Test
    void checkJunitFailsTheRuleFileAtItsLine() throws Exception {
        CliRunner.Result r = CliRunner.run("check", broken.toString(), "--format", "junit");

        assertEquals(1, r.code(), r::toString);
        Document xml = validXml(r.out());
        Element suite = (Element) xml.getElementsByTagName("testsuite").item(0);
        NodeList cases = xml.getElementsByTagName("testcase");
        assertEquals(cases.getLength(), Integer.parseInt(suite.getAttribute("tests")));
        List<Element> failed = withChild(cases, "failure");
        assertEquals(failed.size(), Integer.parseInt(suite.getAttribute("failures")));
        Element routing = failed.stream().filter(c -> c.getAttribute("name").endsWith("broker/routing.drl")).findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        String failure = routing.getElementsByTagName("failure").item(0).getTextContent();
        assertTrue(failure.contains("broker/routing.drl:" + brokenLine + ":"), failure);
        assertTrue(failure.contains(BROKEN_RULE), failure);
        assertTrue(cases.getLength() > failed.size(), "the bundle's other files pass: " + r.out());
    }

    // ------------------------------------------------------------------ test

    @Test
    void testJunitHasACasePerScenarioAndCountsRight() throws Exception {
        CliRunner.Result r = CliRunner.run("test", failing.toString(), "--format", "junit");

        assertEquals(1, r.code(), r::toString);
        Document xml = validXml(r.out());
        Element all = xml.getDocumentElement();
        JsonNode json = Json.MAPPER.readTree(CliRunner.run("test", failing.toString(), "--json").out());
        NodeList cases = xml.getElementsByTagName("testcase");
        // a case per scenario, and one for the scenario file that could not be read
        assertEquals(json.get("scenarios").asInt() + 1, cases.getLength(), r::toString);
        assertEquals(String.valueOf(cases.getLength()), all.getAttribute("tests"));
        assertEquals("1", all.getAttribute("failures"));
        assertEquals("1", all.getAttribute("errors"));
        NodeList suites = xml.getElementsByTagName("testsuite");
        int sum = 0;
        for (int i = 0; i < suites.getLength(); i++) {
            Element s = (Element) suites.item(i);
            assertEquals(s.getElementsByTagName("testcase").getLength(), Integer.parseInt(s.getAttribute("tests")));
            sum += Integer.parseInt(s.getAttribute("tests"));
        }
        assertEquals(cases.getLength(), sum);
        Element failed = withChild(cases, "failure").get(0);
        assertEquals(FAILING_SCENARIO, failed.getAttribute("name"));
        assertTrue(failed.getAttribute("classname").endsWith("broker/scenarios/routing.yaml"), () -> failed.getAttribute("classname"));
        String why = failed.getElementsByTagName("failure").item(0).getTextContent();
        assertTrue(why.contains("routing.yaml:" + failingLine + ": FAIL"), why);
        assertTrue(why.contains("primary_recipients: expected [\"openclaw\"], got [\"openclaw\",\"knox\"]"), why);
        assertTrue(why.contains("decided by \"" + BROKEN_RULE + "\""), why);
        assertTrue(why.contains("rules considered, in firing order:"), why);
        Element bad = withChild(cases, "error").get(0);
        assertTrue(bad.getAttribute("name").endsWith("broker/scenarios/bad.yaml"), () -> bad.getAttribute("name"));
        assertTrue(bad.getTextContent().contains("colour"), bad::getTextContent);
    }

    @Test
    void testSarifPutsTheFailedScenarioAtItsLine() throws Exception {
        CliRunner.Result r = CliRunner.run("test", failing.toString(), "--format", "sarif");

        assertEquals(1, r.code(), r::toString);
        JsonNode run = valid(SARIF, r.out()).get("runs").get(0);
        JsonNode hit = resultAt(run, "broker/scenarios/routing.yaml", failingLine);
        assertEquals("scenario-failure", hit.get("ruleId").asText());
        assertEquals(FAILING_SCENARIO, hit.at("/properties/scenario").asText());
        assertEquals(BROKEN_RULE, hit.at("/properties/rule").asText());
        assertTrue(hit.at("/message/text").asText().contains("primary_recipients"), hit::toString);
        JsonNode bad = resultIn(run, "broker/scenarios/bad.yaml");
        assertEquals("scenario-file-error", bad.get("ruleId").asText());
    }

    @Test
    void testJsonIsDocumentedAndIsWhatJsonPrints() throws Exception {
        CliRunner.Result r = CliRunner.run("test", failing.toString(), "--format", "json");
        CliRunner.Result alias = CliRunner.run("test", failing.toString(), "--json");

        assertEquals(1, r.code(), r::toString);
        assertEquals(r.out(), alias.out());
        JsonNode doc = valid(TEST_JSON, r.out());
        assertEquals(1, doc.get("failed").asInt());

        // A bundle that does not compile: no scenario ran; each format still says so in its own shape
        CliRunner.Result refused = CliRunner.run("test", broken.toString(), "--format", "json");
        assertEquals(1, refused.code(), refused::toString);
        JsonNode none = valid(TEST_JSON, refused.out());
        assertTrue(none.get("errors").toString().contains("priorty"), refused::toString);
        CliRunner.Result refusedXml = CliRunner.run("test", broken.toString(), "--format", "junit");
        assertEquals(1, refusedXml.code());
        assertTrue(validXml(refusedXml.out()).getElementsByTagName("error").item(0).getTextContent()
                .contains("routing.drl:" + brokenLine + ":"), refusedXml::toString);
    }

    @Test
    void anUnknownFormatIsAUsageErrorAndOutputWritesAFile() throws Exception {
        CliRunner.Result r = CliRunner.run("check", broken.toString(), "--format", "xml");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("--format is one of text, json, junit, sarif"), r::toString);
        assertEquals(2, CliRunner.run("test", failing.toString(), "--json", "--format", "sarif").code());

        Path file = tmp.resolve("report.sarif");
        CliRunner.Result written = CliRunner.run("test", failing.toString(), "--format", "sarif", "--output", file.toString());
        assertEquals(1, written.code(), written::toString);
        assertEquals("", written.out());
        valid(SARIF, Files.readString(file));
        CliRunner.Result folder = CliRunner.run("test", failing.toString(), "--format", "sarif", "--output", tmp.toString());
        assertEquals(1, folder.code());
        assertTrue(folder.err().contains("is a folder"), folder::toString);
    }

    @Test
    void theSchemasRefuseWhatTheyMust() {
        // the validators used above do refuse: a SARIF log without its version, a case outside a suite
        assertFalse(SARIF.validate("{\"runs\": []}", InputFormat.JSON).isEmpty());
        assertFalse(CHECK_JSON.validate("{\"ok\": true}", InputFormat.JSON).isEmpty());
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> validXml("<testsuites><testcase name=\"x\"/></testsuites>"));
        assertTrue(e.getMessage().contains("not valid JUnit XML"), e::getMessage);
    }

    @Test
    void hostileTextStaysValidAndFindsItsRule() throws Exception {
        // A scenario name or message may hold anything: XML 1.0 cannot hold a NUL or a lone surrogate,
        // so they become U+FFFD; markup is escaped; a path with a space is a valid URI reference
        String hostile = "a\u0000b\uD800c <failure>&\"'\u001b";
        CiReports.Finding f = new CiReports.Finding(CiReports.Kind.BUNDLE_ERROR, "rules/my pack/x y.drl", 3, 0, hostile,
                "r \"1\"", java.util.Map.of());
        Document xml = validXml(CiReports.checkJunit(List.of(), List.of(f), List.of()));
        String failure = xml.getElementsByTagName("failure").item(0).getTextContent();
        assertTrue(failure.contains("a\uFFFDb\uFFFDc <failure>&\"'\uFFFD"), failure);
        JsonNode log = valid(SARIF, Json.write(CiReports.sarif(List.of(f), List.of(CiReports.Kind.BUNDLE_ERROR))));
        assertEquals("rules/my%20pack/x%20y.drl", log.at("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri").asText());
        assertFalse(log.at("/runs/0/results/0/locations/0/physicalLocation/region").has("startColumn"), "no column 0");

        // The rule a line is in: inside its rule ... end block, and none outside every block
        String drl = "package signalman.broker\n\nrule \"first\"\nwhen\n  Message()\nthen\nend\n\nrule second\nwhen\nthen\nend\n";
        io.signalman.engine.BundleFiles files = io.signalman.engine.BundleFiles.of(tmp,
                java.util.Map.of("broker/a.drl", drl.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(null, CiReports.ruleAt(files, "broker/a.drl", 1));
        assertEquals("first", CiReports.ruleAt(files, "broker/a.drl", 5));
        assertEquals("first", CiReports.ruleAt(files, "broker/a.drl", 7));
        assertEquals(null, CiReports.ruleAt(files, "broker/a.drl", 8));
        assertEquals("second", CiReports.ruleAt(files, "broker/a.drl", 11));
        assertEquals(null, CiReports.ruleAt(files, "broker/a.drl", 0));
    }

    // ------------------------------------------------------------------ schemas

    static final Schema SARIF = jsonSchema(Path.of("src/test/resources/schemas/sarif-2.1.0-rtm.5.json"),
            SpecificationVersion.DRAFT_4);
    private static final Schema CHECK_JSON = jsonSchema(Path.of("docs/schemas/check.schema.json"), SpecificationVersion.DRAFT_2020_12);
    private static final Schema TEST_JSON = jsonSchema(Path.of("docs/schemas/test.schema.json"), SpecificationVersion.DRAFT_2020_12);

    private static Schema jsonSchema(Path file, SpecificationVersion version) {
        try {
            return SchemaRegistry.withDefaultDialect(version).getSchema(Files.readString(file), InputFormat.JSON);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static JsonNode valid(Schema schema, String json) throws IOException {
        List<Error> errors = schema.validate(json, InputFormat.JSON);
        assertEquals(List.of(), errors.stream().map(Error::toString).toList(), json);
        return Json.MAPPER.readTree(json);
    }

    static Document validXml(String xml) throws Exception {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        Validator validator = factory.newSchema(Path.of("src/test/resources/schemas/jenkins-junit.xsd").toFile()).newValidator();
        try {
            validator.validate(new StreamSource(new StringReader(xml)));
        } catch (org.xml.sax.SAXException e) {
            throw new AssertionError("not valid JUnit XML: " + e.getMessage() + "\n" + xml, e);
        }
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return dbf.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static JsonNode resultAt(JsonNode run, String file, int line) {
        List<JsonNode> hits = new ArrayList<>();
        for (JsonNode r : run.get("results")) {
            JsonNode loc = r.at("/locations/0/physicalLocation");
            if (loc.at("/artifactLocation/uri").asText().endsWith(file) && loc.at("/region/startLine").asInt() == line) {
                hits.add(r);
            }
        }
        assertEquals(1, hits.size(), () -> "one result at " + file + ":" + line + " in " + run);
        String uri = hits.get(0).at("/locations/0/physicalLocation/artifactLocation/uri").asText();
        assertTrue(!uri.startsWith("/"), "a relative URI or a file: URI, not a bare absolute path: " + uri);
        return hits.get(0);
    }

    private static JsonNode resultIn(JsonNode run, String file) {
        for (JsonNode r : run.get("results")) {
            if (r.at("/locations/0/physicalLocation/artifactLocation/uri").asText().endsWith(file)) {
                return r;
            }
        }
        throw new AssertionError("no result in " + file + ": " + run);
    }

    private static JsonNode only(JsonNode findings, String file, int line) {
        List<JsonNode> hits = new ArrayList<>();
        findings.forEach(f -> {
            if (f.get("file").asText().endsWith(file) && f.get("line").asInt() == line) {
                hits.add(f);
            }
        });
        assertEquals(1, hits.size(), findings::toString);
        return hits.get(0);
    }

    private static List<Element> withChild(NodeList cases, String child) {
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            if (c.getElementsByTagName(child).getLength() > 0) {
                out.add(c);
            }
        }
        return out;
    }
}
