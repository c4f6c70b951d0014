package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * examples/ci/: the GitHub Actions workflow and the GitLab pipeline run, on a pull request, the
 * check, the scenarios and the replay gate, and upload their reports. Every {@code bin/signalman}
 * command either file holds is run here, in process, against this repository's rules and golden
 * history (its report files written to a temporary folder): a command or flag that does not exist,
 * or a report not in the format its upload expects, fails this test.
 */
class CiExamplesTest {

    static final Path GITHUB = Path.of("examples/ci/github/signalman.yml");
    static final Path GITLAB = Path.of("examples/ci/gitlab/.gitlab-ci.yml");

    /** Shell text a command line here may not hold: the test splits it on spaces, as sh would this text. */
    private static final Pattern SHELL = Pattern.compile("[\"'`$|;&<>()*?\\\\]");

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void theGithubWorkflowRunsOnPullRequestsAndUploadsWhatItsCommandsWrite() throws Exception {
        Map<String, Object> flow = yaml(GITHUB);
        Object on = flow.containsKey("on") ? flow.get("on") : flow.get(Boolean.TRUE); // YAML 1.1 reads `on` as true
        assertTrue(on instanceof Map<?, ?> m && m.containsKey("pull_request"), "runs on pull requests: " + on);
        List<String> lines = new ArrayList<>();
        List<Map<String, Object>> uses = new ArrayList<>();
        for (Object job : ((Map<String, Object>) flow.get("jobs")).values()) {
            for (Map<String, Object> step : (List<Map<String, Object>>) ((Map<String, Object>) job).get("steps")) {
                if (step.get("run") != null) {
                    lines.addAll(commands(step.get("run").toString()));
                }
                if (step.get("uses") != null) {
                    uses.add(step);
                }
            }
        }
        Map<String, Path> written = runAll(lines);

        Map<String, Object> sarif = with(uses, "github/codeql-action/upload-sarif@");
        Path uploaded = written.get(String.valueOf(sarif.get("sarif_file")));
        assertTrue(uploaded != null, "upload-sarif uploads a report a command wrote: " + sarif + " " + written.keySet());
        assertEquals("2.1.0", Json.MAPPER.readTree(Files.readString(uploaded)).get("version").asText());
        Map<String, Object> artifact = with(uses, "actions/upload-artifact@");
        List<String> kept = String.valueOf(artifact.get("path")).lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
        assertEquals(written.keySet().stream().sorted().toList(), kept.stream().sorted().toList(), "every report is kept");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theGitlabPipelineRunsOnMergeRequestsAndReportsWhatItsCommandsWrite() throws Exception {
        Map<String, Object> pipeline = yaml(GITLAB);
        assertTrue(String.valueOf(pipeline.get("workflow")).contains("merge_request_event"), "runs on merge requests");
        List<String> lines = new ArrayList<>();
        List<String> junit = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (Map.Entry<String, Object> e : pipeline.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> job) || !job.containsKey("script")) {
                continue;
            }
            for (Object line : (List<Object>) job.get("script")) {
                lines.addAll(commands(line.toString()));
            }
            if (job.get("artifacts") instanceof Map<?, ?> a && !"build".equals(e.getKey())) {
                assertEquals("always", a.get("when"), "a failed job still keeps its reports: " + e.getKey());
                if (a.get("reports") instanceof Map<?, ?> r && r.get("junit") != null) {
                    junit.add(r.get("junit").toString());
                }
                if (a.get("paths") instanceof List<?> p) {
                    p.forEach(x -> paths.add(x.toString()));
                }
            }
        }
        Map<String, Path> written = runAll(lines);
        for (String report : junit) {
            Path file = written.get(report);
            assertTrue(file != null, "reports:junit names a report a command wrote: " + report + " " + written.keySet());
            CiReportsTest.validXml(Files.readString(file));
        }
        assertEquals(2, junit.size(), "the check's and the scenarios' JUnit reports: " + junit);
        paths.forEach(p -> assertTrue(written.containsKey(p), "artifact " + p + " is a report a command wrote"));
    }

    /**
     * Runs every command, each report it writes ({@code --output}, {@code --report}) redirected into
     * {@link #tmp} under its own name; asserts check, test and replay are among them, each exits 0,
     * and each report is in the format its command names.
     */
    private Map<String, Path> runAll(List<String> lines) throws Exception {
        Map<String, Path> written = new LinkedHashMap<>();
        List<String> commands = new ArrayList<>();
        for (String line : lines) {
            assertFalse(SHELL.matcher(line).find(), "a plain command line: " + line);
            List<String> argv = new ArrayList<>(List.of(line.trim().split("\\s+")));
            argv.remove(0);
            String format = "text";
            for (int i = 0; i < argv.size() - 1; i++) {
                if (argv.get(i).equals("--format")) {
                    format = argv.get(i + 1);
                }
                if (argv.get(i).equals("--output") || argv.get(i).equals("--report")) {
                    String name = argv.get(i + 1);
                    assertFalse(name.contains("/"), "a report in the working folder: " + name);
                    Path file = tmp.resolve(name);
                    written.put(name, file);
                    argv.set(i + 1, file.toString());
                }
            }
            CliRunner.Result r = CliRunner.run(argv.toArray(String[]::new));
            assertEquals(0, r.code(), () -> line + " exits 0 on this repository's rules:\n" + r.out() + r.err());
            commands.add(argv.get(0));
            for (int i = 0; i < argv.size() - 1; i++) {
                if (argv.get(i).equals("--output")) {
                    String text = Files.readString(Path.of(argv.get(i + 1)));
                    switch (format) {
                        case "sarif" -> CiReportsTest.valid(CiReportsTest.SARIF, text);
                        case "junit" -> CiReportsTest.validXml(text);
                        case "json" -> Json.MAPPER.readTree(text);
                        default -> assertTrue(!text.isEmpty(), line);
                    }
                }
            }
        }
        for (String needed : List.of("check", "test", "replay")) {
            assertTrue(commands.contains(needed), "the example runs signalman " + needed + ": " + lines);
        }
        written.values().forEach(f -> assertTrue(Files.isRegularFile(f), "written: " + f));
        return written;
    }

    /** The {@code bin/signalman ...} lines of a script (continuation lines joined); other lines must not name signalman. */
    private static List<String> commands(String script) {
        List<String> out = new ArrayList<>();
        for (String line : script.replace("\\\n", " ").lines().toList()) {
            String l = line.trim();
            if (l.startsWith("bin/signalman ")) {
                out.add(l);
            } else {
                assertFalse(l.contains("signalman "), "signalman is run as bin/signalman, so this test runs it too: " + l);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> with(List<Map<String, Object>> steps, String action) {
        return steps.stream().filter(s -> s.get("uses").toString().startsWith(action)).findFirst()
                .map(s -> (Map<String, Object>) s.get("with")).orElseThrow(() -> new AssertionError("no step uses " + action));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(Path file) throws IOException {
        return (Map<String, Object>) new Yaml().load(Files.readString(file));
    }
}
