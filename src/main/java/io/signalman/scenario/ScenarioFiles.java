package io.signalman.scenario;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads the scenarios of a bundle: every {@code <pack>/scenarios/*.yaml} (or {@code .yml}), each
 * a YAML list of scenarios. YAML rather than JSON: analysts write these by hand, and YAML takes
 * comments and needs no quotes or braces; JSON files in a pack folder are its reference data.
 * Every problem is reported with its file and line, all at once, as a rule error would be.
 */
public final class ScenarioFiles {

    /** The keys a scenario may have; anything else is a typo worth naming. */
    static final List<String> KEYS = List.of("name", "input", "state_before", "expect");

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    /** The scenarios of a bundle, and what is wrong with its scenario files. */
    public record Suite(List<Scenario> scenarios, List<BundleError> errors) {

        public Suite {
            scenarios = List.copyOf(scenarios);
            errors = List.copyOf(errors);
        }
    }

    private ScenarioFiles() {
    }

    /** Reads the scenario files of a rules directory (file I/O: call from a worker thread). */
    public static Suite read(Path rulesDir) throws BundleException {
        return read(BundleFiles.read(rulesDir));
    }

    /** The scenarios among a bundle's files (the same bytes its revision was computed from). */
    public static Suite read(BundleFiles files) {
        List<Scenario> scenarios = new ArrayList<>();
        List<BundleError> errors = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        for (String path : files.paths()) {
            if (!BundleFiles.isScenario(path)) {
                continue;
            }
            if (!path.endsWith(".yaml") && !path.endsWith(".yml")) {
                if (!path.endsWith(".md")) {
                    errors.add(new BundleError(path, 0, 0, "a scenario file is YAML: name it .yaml (a README.md may sit beside it)"));
                }
                continue;
            }
            String pack = path.substring(0, path.indexOf('/'));
            for (Scenario s : parse(path, pack, files.bytes(path), errors)) {
                String seen = names.putIfAbsent(pack + "\u0000" + s.name(), s.where());
                if (seen != null) {
                    errors.add(new BundleError(path, s.line(), 0, "another scenario of pack " + pack + " is named \""
                            + s.name() + "\" (" + seen + "); give each its own name"));
                } else {
                    scenarios.add(s);
                }
            }
        }
        return new Suite(scenarios, errors);
    }

    /** The scenarios of one file; problems go to {@code errors}. */
    static List<Scenario> parse(String path, String pack, byte[] bytes, List<BundleError> errors) {
        List<Scenario> out = new ArrayList<>();
        try (JsonParser p = YAML.createParser(bytes)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return out;
            }
            if (first != JsonToken.START_ARRAY) {
                errors.add(new BundleError(path, line(p.currentLocation()), 0,
                        "a scenario file is a list: start each scenario with \"- name: ...\""));
                return out;
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
                int line = line(p.currentLocation());
                JsonNode node = YAML.readTree(p);
                Scenario s = scenario(path, pack, line, node, errors);
                if (s != null) {
                    out.add(s);
                }
            }
            if (p.currentToken() != JsonToken.END_ARRAY) {
                errors.add(new BundleError(path, line(p.currentLocation()), 0,
                        "each entry of a scenario file is a scenario with name, input and expect"));
            }
        } catch (JsonProcessingException e) {
            errors.add(new BundleError(path, line(e.getLocation()), 0, "not valid YAML: " + e.getOriginalMessage()));
        } catch (IOException e) {
            errors.add(new BundleError(path, 0, 0, "cannot read: " + e.getMessage()));
        }
        return out;
    }

    private static Scenario scenario(String path, String pack, int line, JsonNode node, List<BundleError> errors) {
        int before = errors.size();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                errors.add(new BundleError(path, line, 0, "unknown key \"" + key + "\" in a scenario; its keys are " + KEYS));
            }
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            errors.add(new BundleError(path, line, 0, "a scenario needs a name: a sentence saying what it shows"));
        }
        String called = name == null ? "" : " \"" + name.asText() + "\"";
        JsonNode input = node.get("input");
        if (input == null || !input.isObject()) {
            errors.add(new BundleError(path, line, 0, "scenario" + called + " needs an input: the request, as the pack's README shows it"));
        }
        JsonNode expect = node.get("expect");
        if (expect == null || !expect.isObject() || expect.isEmpty()) {
            errors.add(new BundleError(path, line, 0, "scenario" + called
                    + " needs an expect: the fields of the decision it must come out with (and rule, the deciding rule)"));
        }
        JsonNode state = node.get("state_before");
        if (state != null && !state.isObject() && !state.isNull()) {
            errors.add(new BundleError(path, line, 0, "scenario" + called + ": state_before is the state the decision starts from,"
                    + " as replay records write it"));
        }
        if (errors.size() > before) {
            return null;
        }
        return new Scenario(name.asText(), pack, path, line, input, state == null || state.isNull() ? null : state, expect);
    }

    private static int line(JsonLocation at) {
        return at == null ? 0 : Math.max(0, at.getLineNr());
    }
}
