package io.signalman.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.signalman.http.TestServer;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/: the compose file, the Kubernetes manifests and the Grafana dashboard hold together with
 * each other, with the image (its user, ports and volume paths) and with the server (its serve
 * flags, SIGNALMAN_* names, probes and the metrics it exports).
 */
class DeployManifestsTest {

    @RegisterExtension
    static final TestServer server = TestServer.seed();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DEPLOY = Path.of("deploy");
    /** Read from the environment but not serve flags (ServeCommand: the state database's login). */
    private static final Set<String> ENV_ONLY = Set.of("SIGNALMAN_STATE_JDBC_USER", "SIGNALMAN_STATE_JDBC_PASSWORD");
    private static final int IMAGE_UID = 65532;

    @Test
    void the_statefulset_joins_its_members_through_the_headless_service_and_is_probed_on_ready_and_health() throws Exception {
        Map<String, JsonNode> k = kubernetes();
        assertEquals(Set.of("StatefulSet/signalman", "Service/signalman", "Service/signalman-cluster",
                "PodDisruptionBudget/signalman"), k.keySet());
        JsonNode sts = k.get("StatefulSet/signalman");
        assertEquals("apps/v1", sts.path("apiVersion").asText());
        assertEquals("policy/v1", k.get("PodDisruptionBudget/signalman").path("apiVersion").asText());
        assertEquals("v1", k.get("Service/signalman").path("apiVersion").asText());

        JsonNode headless = k.get("Service/" + sts.path("spec").path("serviceName").asText());
        assertNotNull(headless, "the StatefulSet's serviceName is one of the Services");
        assertEquals("None", headless.path("spec").path("clusterIP").asText(), "a headless Service");
        assertTrue(headless.path("spec").path("publishNotReadyAddresses").asBoolean(),
                "members resolve each other before they are ready");
        JsonNode podLabels = sts.path("spec").path("template").path("metadata").path("labels");
        assertEquals(sts.path("spec").path("selector").path("matchLabels"), podLabels);
        for (String name : List.of("signalman", "signalman-cluster")) {
            assertSubset(k.get("Service/" + name).path("spec").path("selector"), podLabels, "Service " + name + " selects the pods");
        }
        assertSubset(k.get("PodDisruptionBudget/signalman").path("spec").path("selector").path("matchLabels"), podLabels,
                "the PodDisruptionBudget selects the pods");

        JsonNode pod = sts.path("spec").path("template").path("spec");
        JsonNode c = pod.path("containers").path(0);
        Map<String, Integer> ports = new HashMap<>();
        c.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
        assertEquals(Map.of("http", 8080, "hazelcast", 5701), ports);
        int hz = port(headless.path("spec").path("ports").path(0).path("targetPort"), ports);
        assertEquals(5701, hz, "the headless Service points at the Hazelcast port");
        assertEquals(8080, port(k.get("Service/signalman").path("spec").path("ports").path(0).path("targetPort"), ports));

        assertEquals("/ready", c.path("readinessProbe").path("httpGet").path("path").asText());
        assertEquals(8080, port(c.path("readinessProbe").path("httpGet").path("port"), ports));
        assertEquals("/health", c.path("livenessProbe").path("httpGet").path("path").asText());
        assertEquals(8080, port(c.path("livenessProbe").path("httpGet").path("port"), ports));
        assertFalse(c.path("resources").path("requests").path("cpu").asText().isEmpty(), "a CPU request");
        assertFalse(c.path("resources").path("requests").path("memory").asText().isEmpty(), "a memory request");

        assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean());
        assertEquals(IMAGE_UID, pod.path("securityContext").path("runAsUser").asInt(), "the image's user");
        assertEquals(IMAGE_UID, pod.path("securityContext").path("fsGroup").asInt(), "the data volume is the user's");

        // The data volume is the image's data path, one claim per member.
        String claim = sts.path("spec").path("volumeClaimTemplates").path(0).path("metadata").path("name").asText();
        assertEquals(ImageTest.DATA, mountOf(c, claim));
        assertFalse(sts.path("spec").path("volumeClaimTemplates").path(0).path("spec").path("resources").path("requests")
                .path("storage").asText().isEmpty());

        // serve's flags, and every member named by its stable DNS name through the headless Service.
        List<String> args = strings(c.path("args"));
        assertEquals("serve", args.get(0));
        assertFlagsExist(args);
        int replicas = sts.path("spec").path("replicas").asInt();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            expected.add(sts.path("metadata").path("name").asText() + "-" + i + "." + headless.path("metadata").path("name").asText()
                    + ":" + hz);
        }
        assertEquals(String.join(",", expected), args.get(args.indexOf("--members") + 1));
        int quorum = Integer.parseInt(args.get(args.indexOf("--cluster-quorum") + 1));
        int maxUnavailable = k.get("PodDisruptionBudget/signalman").path("spec").path("maxUnavailable").asInt();
        assertTrue(replicas - maxUnavailable >= quorum, "a disruption the budget allows keeps the quorum");

        List<String> env = new ArrayList<>();
        c.path("env").forEach(e -> env.add(e.path("name").asText()));
        assertTrue(env.contains("SIGNALMAN_CLUSTER_HOST"), "each member says its own address");
        assertEnvExist(env);
    }

    @Test
    void the_compose_file_runs_three_members_and_postgresql_with_real_flags() throws Exception {
        JsonNode compose;
        try (Reader r = Files.newBufferedReader(DEPLOY.resolve("compose.yaml"))) {
            compose = JSON.valueToTree(new Yaml().load(r));
        }
        JsonNode services = compose.path("services");
        assertEquals(Set.of("postgres", "node1", "node2", "node3"), names(services));
        assertTrue(services.path("postgres").path("image").asText().startsWith("postgres:15"));
        for (String node : List.of("node1", "node2", "node3")) {
            JsonNode s = services.path(node);
            List<String> command = strings(s.path("command"));
            assertEquals("serve", command.get(0), node);
            assertFlagsExist(command);
            assertTrue(command.contains("--cluster"), node);
            for (String member : command.get(command.indexOf("--members") + 1).split(",")) {
                String host = member.substring(0, member.lastIndexOf(':'));
                assertTrue(services.has(host) && !host.equals("postgres"), member + " is a member service");
                assertEquals("5701", member.substring(member.lastIndexOf(':') + 1));
            }
            assertEquals(node, s.path("environment").path("SIGNALMAN_CLUSTER_HOST").asText());
            assertEnvExist(names(s.path("environment")));
            String jdbc = s.path("environment").path("SIGNALMAN_STATE_JDBC").asText();
            assertTrue(jdbc.startsWith("jdbc:postgresql://postgres:5432/"), jdbc);
            assertEquals("service_healthy", s.path("depends_on").path("postgres").path("condition").asText());
            // Probed on /ready by the application's own probe, in the image's layout (ImageTest runs it there).
            List<String> check = strings(s.path("healthcheck").path("test"));
            assertEquals(List.of("CMD", "/opt/java/bin/java"), check.subList(0, 2), node);
            assertEquals("/app/classes", check.get(check.indexOf("-cp") + 1));
            Class.forName(check.get(check.size() - 1)).getMethod("main", String[].class);
            List<String> volumes = strings(s.path("volumes"));
            assertTrue(volumes.stream().anyMatch(v -> v.endsWith(":" + ImageTest.DATA)), node + " keeps its data in a volume");
            assertTrue(volumes.stream().anyMatch(v -> v.endsWith(":" + ImageTest.RULES)), node + " keeps its rules mirror");
            assertTrue(strings(s.path("ports")).stream().allMatch(p -> p.endsWith(":8080")), "the image's port");
            for (String v : volumes) {
                assertTrue(compose.path("volumes").has(v.substring(0, v.indexOf(':'))), "a named volume: " + v);
            }
        }
        assertTrue(services.path("postgres").path("healthcheck").path("test").toString().contains("pg_isready"));
    }

    @Test
    void every_dashboard_query_names_a_metric_the_server_exports() throws Exception {
        JsonNode dash = JSON.readTree(DEPLOY.resolve("grafana/signalman.json").toFile());
        assertEquals("signalman", dash.path("uid").asText());
        Set<String> exported = exported();
        Pattern metric = Pattern.compile("\\b((?:signalman|vertx|jvm|process|system)_[a-z0-9_]+)\\b");
        Set<String> used = new TreeSet<>();
        assertTrue(dash.path("panels").size() >= 8, "a dashboard, not a panel");
        for (JsonNode panel : dash.path("panels")) {
            assertFalse(panel.path("targets").isEmpty(), panel.path("title").asText());
            for (JsonNode t : panel.path("targets")) {
                Matcher m = metric.matcher(t.path("expr").asText());
                boolean any = false;
                while (m.find()) {
                    used.add(m.group(1));
                    any = true;
                }
                assertTrue(any, "a query on a metric: " + t);
            }
        }
        Set<String> missing = new TreeSet<>(used);
        missing.removeAll(exported);
        assertTrue(missing.isEmpty(), "the dashboard queries metrics the server does not export: " + missing);
    }

    /**
     * The metrics a server exports: those GET /metrics shows on a server that has answered a request
     * (the HTTP histograms) but decided nothing yet, and those registered on a first decision or in a
     * cluster (Metrics.java, by name).
     */
    private static Set<String> exported() throws IOException {
        Set<String> out = new TreeSet<>();
        assertEquals(200, server.get("/ready").statusCode());
        var response = server.get("/metrics");
        assertEquals(200, response.statusCode());
        for (String line : response.body().lines().toList()) {
            if (!line.startsWith("#") && !line.isBlank()) {
                out.add(line.split("[{ ]", 2)[0]);
            }
        }
        String source = Files.readString(Path.of("src/main/java/io/signalman/http/Metrics.java"));
        Matcher counter = Pattern.compile("Counter\\.builder\\(\"(signalman\\.[a-z.]+)\"").matcher(source);
        while (counter.find()) {
            out.add(counter.group(1).replace('.', '_') + "_total");
        }
        Matcher gauge = Pattern.compile("Gauge\\.builder\\(\"(signalman\\.[a-z.]+)\"").matcher(source);
        while (gauge.find()) {
            out.add(gauge.group(1).replace('.', '_'));
        }
        return out;
    }

    private static Map<String, JsonNode> kubernetes() throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        try (Stream<Path> files = Files.list(DEPLOY.resolve("kubernetes"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (Reader r = Files.newBufferedReader(f)) {
                    for (Object doc : new Yaml().loadAll(r)) {
                        JsonNode n = JSON.valueToTree(doc);
                        String key = n.path("kind").asText() + "/" + n.path("metadata").path("name").asText();
                        assertNotNull(n.path("apiVersion").textValue(), f + ": " + key + " has an apiVersion");
                        assertTrue(out.put(key, n) == null, "one " + key);
                    }
                }
            }
        }
        return out;
    }

    /** Every --flag given to serve is one of serve's flags (ServeCommand's, read as the parser reads them). */
    private static void assertFlagsExist(List<String> argv) throws Exception {
        Set<String> flags = serveFlags();
        for (String a : argv) {
            if (a.startsWith("--")) {
                String name = a.substring(2).split("=", 2)[0];
                assertTrue(flags.contains(name), "serve has no flag --" + name);
            }
        }
    }

    /** Every SIGNALMAN_* name is a serve flag's (Args: SIGNALMAN_ and the flag, upper case, dashes as underscores). */
    private static void assertEnvExist(Iterable<String> names) throws Exception {
        Set<String> flags = serveFlags();
        for (String name : names) {
            if (!name.startsWith("SIGNALMAN_") || ENV_ONLY.contains(name)) {
                continue;
            }
            String flag = name.substring("SIGNALMAN_".length()).toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            assertTrue(flags.contains(flag), name + " names no serve flag");
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> serveFlags() throws Exception {
        Set<String> out = new TreeSet<>();
        Class<?> serve = Class.forName("io.signalman.cli.ServeCommand");
        for (Field f : serve.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && Set.class.isAssignableFrom(f.getType())) {
                f.setAccessible(true);
                out.addAll((Set<String>) f.get(null));
            }
        }
        assertTrue(out.containsAll(Set.of("host", "port", "data", "rules", "cluster", "members")), "serve's flags: " + out);
        return out;
    }

    private static int port(JsonNode ref, Map<String, Integer> ports) {
        if (ref.isInt()) {
            assertTrue(ports.containsValue(ref.asInt()), "a container port: " + ref);
            return ref.asInt();
        }
        assertTrue(ports.containsKey(ref.asText()), "a named container port: " + ref);
        return ports.get(ref.asText());
    }

    private static String mountOf(JsonNode container, String volume) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                return m.path("mountPath").asText();
            }
        }
        return null;
    }

    private static void assertSubset(JsonNode selector, JsonNode labels, String what) {
        assertFalse(selector.isEmpty(), what);
        selector.fields().forEachRemaining(e -> assertEquals(e.getValue(), labels.path(e.getKey()), what));
    }

    private static Set<String> names(JsonNode object) {
        Set<String> out = new TreeSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
