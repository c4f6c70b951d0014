package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.config.Config;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.cluster.Cluster;
import io.signalman.cluster.ClusterConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.signalman.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of three real JVMs on 127.0.0.1 ({@code signalman serve --cluster}, Hazelcast TCP/IP
 * discovery): any node answers the same; FSM actions sent to different nodes at once apply in
 * one serial order; a live trial runs on every node with the cluster's figures; a node with
 * changed rules is flagged in {@code /v1/cluster}; {@code replay --members} spreads an archive
 * over the nodes and reports what one machine reports; a node killed
 * with SIGKILL under load loses no acknowledged state change and the others keep serving.
 * The tests share the cluster and run in order (the kill is last). Everything is bounded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClusterTest {

    private static final String TOKEN = "cluster-admin-token";
    private static final int NODES = 3;

    @TempDir
    static Path dir;

    private final List<ServeProcess> nodes = new ArrayList<>();
    private List<String> members;
    /** What the clients of the kill test met: 503s, failed connections, retries that found their step applied. */
    private final AtomicInteger unavailable = new AtomicInteger();
    private final AtomicInteger connectionFailures = new AtomicInteger();
    private final AtomicInteger appliedUnanswered = new AtomicInteger();
    private final List<Path> rules = new ArrayList<>();
    private final List<String[]> launchArgs = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    void startThreeNodes() throws IOException {
        List<Integer> clusterPorts = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            clusterPorts.add(TestBundles.freePort());
        }
        members = clusterPorts.stream().map(p -> "127.0.0.1:" + p).toList();
        for (int i = 0; i < NODES; i++) {
            Path own = dir.resolve("node" + i);
            Path copy = TestBundles.copyOfRules(own);
            rules.add(copy);
            // Each node's folder a clone's work tree, with --rules-git: the node that activates commits, the others mirror.
            try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.init().setDirectory(copy.toFile()).call()) {
                git.add().addFilepattern(".").call();
                git.commit().setMessage("the seed").setAuthor("team", "team@example.com")
                        .setCommitter("team", "team@example.com").setSign(false).call();
            } catch (org.eclipse.jgit.api.errors.GitAPIException e) {
                throw new IOException(e);
            }
            String[] args = {"--rules", copy.toString(), "--cluster", "--cluster-host", "127.0.0.1", "--cluster-port",
                    String.valueOf(clusterPorts.get(i)), "--members", String.join(",", members), "--cluster-quorum", "2",
                    "--rules-git"};
            launchArgs.add(args);
            nodes.add(ServeProcess.launch(own.resolve("data"), Map.of("SIGNALMAN_ADMIN_TOKEN", TOKEN), args));
        }
        for (ServeProcess n : nodes) {
            n.awaitServing(Duration.ofSeconds(120));
        }
        Await.until(Duration.ofSeconds(60), "every node to see three reachable members, all on one revision, safe",
                () -> nodes.stream().allMatch(n -> {
                    JsonNode c = clusterView(n);
                    return c != null && c.path("members").size() == NODES && c.path("consistent").asBoolean()
                            && c.path("safe").asBoolean();
                }));
    }

    @AfterAll
    void stopNodes() throws IOException {
        nodes.forEach(ServeProcess::close);
        // cluster.activation_convergence_ms: from each activation's request until every live member served it
        List<Long> ms = new ArrayList<>(convergence);
        if (!ms.isEmpty()) {
            ms.sort(null);
            ObjectNode out = Json.object().put("activations", ms.size()).put("nodes", NODES)
                    .put("p50_ms", ms.get((ms.size() - 1) / 2)).put("p99_ms", ms.get((int) Math.ceil(ms.size() * 0.99) - 1))
                    .put("max_ms", ms.get(ms.size() - 1)).put("max_after_answer_ms", afterAnswer.stream().mapToLong(Long::longValue)
                            .max().orElse(0));
            Path file = Path.of("target", "bench", "cluster-activation.json");
            Files.createDirectories(file.getParent());
            Files.writeString(file, Json.write(out) + "\n");
            System.out.println("cluster.activation_convergence_ms " + out);
        }
    }

    @Test
    @Order(10)
    void everyNodeShowsTheSameClusterAndAnyNodeDecidesTheSame() throws Exception {
        JsonNode first = clusterView(nodes.get(0));
        String revision = first.path("rules_revision").asText();
        assertTrue(revision.startsWith("sha256:"), first.toString());
        for (ServeProcess n : nodes) {
            JsonNode view = clusterView(n);
            assertTrue(view.path("clustered").asBoolean(), view.toString());
            assertEquals(revision, view.path("rules_revision").asText());
            List<String> https = new ArrayList<>();
            view.path("members").forEach(m -> {
                assertTrue(m.path("reachable").asBoolean(), m.toString());
                assertFalse(m.path("revision_differs").asBoolean(), m.toString());
                https.add(m.path("http").asText());
            });
            Collections.sort(https);
            List<String> gauge = get(n, "/metrics").body().lines().filter(l -> l.startsWith("signalman_cluster_members")).toList();
            assertEquals(List.of("signalman_cluster_members " + NODES + ".0"), gauge, "the members gauge");
            assertEquals(nodes.stream().map(x -> "127.0.0.1:" + x.port()).sorted().toList(), https);
        }
        String message = """
                {"envelope": {"from_agent": "foresight", "priority": "normal"}, "type": "event", "subtype": "trade.executed",
                 "payload": {"qty": 3}}""";
        JsonNode expected = null;
        for (ServeProcess n : nodes) {
            HttpResponse<String> r = post(n, "/v1/broker/route", message);
            assertEquals(200, r.statusCode(), r.body());
            ObjectNode d = (ObjectNode) Json.parse(r.body());
            assertEquals(revision, d.path("rules_revision").asText(), d.toString());
            d.remove(List.of("decision_id", "at"));
            if (expected == null) {
                expected = d;
            }
            assertEquals(expected, d, "node " + n.port() + " decided otherwise");
        }
        // State made on one node is seen by every other.
        assertEquals(201, post(nodes.get(0), "/v1/fsm/instances", "{\"id\": \"shared-1\", \"machine\": \"review-flow\"}").statusCode());
        assertEquals(200, post(nodes.get(1), "/v1/fsm/instances/shared-1/actions", "{\"action\": \"start\"}").statusCode());
        for (ServeProcess n : nodes) {
            assertEquals("running", Json.parse(get(n, "/v1/fsm/instances/shared-1").body()).path("current_state").asText());
        }
        // So is a handoff conversation: created on one node, a turn on another, its count on the third.
        assertEquals(201, post(nodes.get(0), "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"h-1\"}").statusCode());
        HttpResponse<String> turn = post(nodes.get(1), "/v1/handoff/conversations/h-1/turns",
                "{\"agent\": \"teacher\", \"response\": \"Question 1: 2+2? [QUESTION]\", \"tool_calls\": 0}");
        assertEquals(200, turn.statusCode(), turn.body());
        assertEquals(1, Json.parse(turn.body()).path("handoff_count").asInt(), turn.body());
        assertEquals(1, Json.parse(get(nodes.get(2), "/v1/handoff/conversations/h-1").body()).path("handoff_count").asInt());
    }

    /**
     * A service inside the Vert.x cluster (here a Hazelcast lite member: it joins, holds no data)
     * asks {@code signalman.broker.route} over the event bus, with no HTTP hop; the cluster's event
     * bus spreads the requests over the nodes, and each answers the same decision and logs it.
     */
    @Test
    @Order(20)
    void servicesInTheClusterGetDecisionsOverTheEventBusFromEveryNode() throws Exception {
        Config lite = Cluster.hazelcastConfig(new ClusterConfig("127.0.0.1", TestBundles.freePort(), members)).setLiteMember(true);
        VertxOptions options = new VertxOptions();
        options.getEventBusOptions().setHost("127.0.0.1").setClusterPublicHost("127.0.0.1");
        Vertx service = Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(lite)).buildClustered()
                .await();
        try {
            JsonNode expected = null;
            int requests = 30;
            for (int i = 0; i < requests; i++) {
                JsonObject message = new JsonObject().put("envelope", new JsonObject().put("from_agent", "foresight")
                        .put("priority", "normal")).put("type", "event").put("subtype", "trade.executed")
                        .put("payload", new JsonObject().put("qty", 777_000 + i));
                Message<Object> reply = service.eventBus().request("signalman.broker.route", message,
                        new DeliveryOptions().setSendTimeout(10_000)).toCompletionStage().toCompletableFuture()
                        .get(15, TimeUnit.SECONDS);
                ObjectNode d = (ObjectNode) Json.parse(((JsonObject) reply.body()).encode());
                d.remove(List.of("decision_id", "at"));
                if (expected == null) {
                    expected = d;
                }
                assertEquals(expected, d, "request " + i);
            }
            assertEquals("trade messages go to VP Trading", expected.path("rule").asText(), expected.toString());
            // Every node decided some of them: each one's decision log holds its share.
            for (int n = 0; n < NODES; n++) {
                Path decisions = dir.resolve("node" + n).resolve("data/decisions");
                Await.until(Duration.ofSeconds(20), "node " + n + " to log event-bus decisions",
                        () -> logged(decisions, "\"qty\":777") > 0);
            }
            Await.until(Duration.ofSeconds(20), "all " + requests + " decisions logged once", () -> {
                int sum = 0;
                for (int n = 0; n < NODES; n++) {
                    sum += logged(dir.resolve("node" + n).resolve("data/decisions"), "\"qty\":777");
                }
                return sum == requests;
            });
        } finally {
            service.close().await();
        }
    }

    /** Lines of a node's decision log containing {@code needle}. */
    private static int logged(Path decisions, String needle) {
        int count = 0;
        try (Stream<Path> files = Files.list(decisions)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                for (String line : Files.readAllLines(f)) {
                    if (line.contains(needle)) {
                        count++;
                    }
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return count;
    }

    /** A client that retries on another node with the same Idempotency-Key gets the first answer; nothing moves twice. */
    @Test
    @Order(25)
    void aRetryWithTheSameKeyOnAnotherNodeIsAnsweredNotRedone() throws Exception {
        assertEquals(201, post(nodes.get(0), "/v1/fsm/instances", "{\"id\": \"keyed-1\", \"machine\": \"transaction\"}")
                .statusCode());
        HttpResponse<String> first = postKeyed(nodes.get(0), "/v1/fsm/instances/keyed-1/actions", "{\"action\": \"begin\"}", "k-1");
        assertEquals(200, first.statusCode(), first.body());
        for (int n = 1; n < NODES; n++) {
            HttpResponse<String> retry = postKeyed(nodes.get(n), "/v1/fsm/instances/keyed-1/actions", "{\"action\": \"begin\"}", "k-1");
            assertEquals(200, retry.statusCode(), retry.body());
            assertEquals(first.body(), retry.body(), "the same answer, decision id included");
            assertEquals("true", retry.headers().firstValue("idempotent-replayed").orElse(null));
        }
        HttpResponse<String> other = postKeyed(nodes.get(2), "/v1/fsm/instances/keyed-1/actions", "{\"action\": \"abort\"}", "k-1");
        assertEquals(422, other.statusCode(), other.body());
        // One move in the whole cluster: a second begin from processing would have been refused, so
        // the instance is exactly one step on, and one more action moves it from there.
        assertEquals("processing", Json.parse(get(nodes.get(1), "/v1/fsm/instances/keyed-1").body()).path("current_state").asText());
        assertEquals(200, post(nodes.get(1), "/v1/fsm/instances/keyed-1/actions", "{\"action\": \"abort\"}").statusCode());
        assertEquals("idle", Json.parse(get(nodes.get(2), "/v1/fsm/instances/keyed-1").body()).path("current_state").asText());
    }

    /**
     * Each step is sent nine times at once, three times to each node. In any serial order only
     * the first can apply (the others find the state moved on and get 409), so a step applied
     * twice would be an update applied against an old state.
     */
    @Test
    @Order(30)
    void concurrentActionsFromDifferentNodesApplyInOneSerialOrder() throws Exception {
        int instances = 12;
        String[] steps = {"start", "review", "restart", "review", "restart", "finish"};
        String[] states = {"running", "revising", "running", "revising", "running", "done"};
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            for (int i = 0; i < instances; i++) {
                String id = "serial-" + i;
                assertEquals(201, post(nodes.get(i % NODES), "/v1/fsm/instances",
                        "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}").statusCode());
                for (int s = 0; s < steps.length; s++) {
                    String body = "{\"action\": \"" + steps[s] + "\", \"payload\": {\"quality\": 0.2}}";
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<HttpResponse<String>>> sent = new ArrayList<>();
                    for (int k = 0; k < 9; k++) {
                        ServeProcess n = nodes.get(k % NODES);
                        sent.add(pool.submit(() -> {
                            go.await();
                            return post(n, "/v1/fsm/instances/" + id + "/actions", body);
                        }));
                    }
                    go.countDown();
                    int applied = 0;
                    for (Future<HttpResponse<String>> f : sent) {
                        HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
                        if (r.statusCode() == 200) {
                            applied++;
                            assertEquals(states[s], Json.parse(r.body()).path("to").asText(), r.body());
                        } else {
                            assertEquals(409, r.statusCode(), r.body());
                            assertEquals("invalid_transition", Json.parse(r.body()).path("error").asText(), r.body());
                        }
                    }
                    assertEquals(1, applied, id + " step " + steps[s] + " applied " + applied + " times");
                }
                for (ServeProcess n : nodes) {
                    assertEquals("done", Json.parse(get(n, "/v1/fsm/instances/" + id).body()).path("current_state").asText());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One live trial for the whole cluster: started through node 0 from a draft of its workbench,
     * every node runs the same candidate with the same buckets (a sender gets one arm whichever
     * node it asks), and the trial's figures on any node are the cluster's, every node's added up;
     * an approver's rejection of the canary's content through another node sends it back to shadow on
     * every node.
     */
    @Test
    @Order(35)
    void aTrialStartedOnOneNodeRunsOnEveryNodeWithTheSameBucketsAndTheClustersFigures() throws Exception {
        // Given a draft on node 0 in which trade messages go to VP Engineering, as a canary at 50%
        String draft = Json.parse(admin(nodes.get(0), "POST", "/workbench/api/drafts", null).body()).path("id").asText();
        String file = "/workbench/api/drafts/" + draft + "/file?path=broker/routing.drl";
        String text = Json.parse(admin(nodes.get(0), "GET", file, null).body()).path("text").asText();
        HttpResponse<String> saved = admin(nodes.get(0), "PUT", file, Json.write(Json.object().put("version", 1)
                .put("text", text.replace("decide.primary(\"vp-trading\")", "decide.primary(\"vp-engineering\")"))));
        assertEquals(200, saved.statusCode(), saved.body());
        HttpResponse<String> started = admin(nodes.get(0), "POST", "/v1/trials", Json.write(Json.object().put("draft", draft)
                .put("mode", "canary").put("percent", 50)));
        assertEquals(201, started.statusCode(), started.body());
        String id = Json.parse(started.body()).path("id").asText();
        String live = Json.parse(started.body()).path("live_revision").asText();
        String trial = "/v1/trials/" + id;
        // ... which every node takes up
        Await.until(Duration.ofSeconds(60), "every node to run the trial", () -> {
            JsonNode t = trialOn(nodes.get(1), trial);
            return t != null && t.path("nodes").size() == NODES
                    && java.util.stream.StreamSupport.stream(t.path("nodes").spliterator(), false)
                            .allMatch(n -> n.path("running").asBoolean());
        });

        // When the same senders ask node 0 and node 1
        Map<String, String> arms = new java.util.TreeMap<>();
        int senders = 16;
        for (int i = 0; i < senders; i++) {
            String sender = "cluster-agent-" + i;
            String message = "{\"envelope\": {\"from_agent\": \"" + sender + "\", \"priority\": \"normal\"}, \"type\": \"event\", "
                    + "\"subtype\": \"trade.executed\", \"payload\": {}}";
            String[] answered = new String[2];
            for (int n = 0; n < 2; n++) {
                HttpResponse<String> r = post(nodes.get(n), "/v1/broker/route", message);
                assertEquals(200, r.statusCode(), r.body());
                JsonNode d = Json.parse(r.body());
                answered[n] = d.path("rules_revision").asText().equals(live) ? "live" : "candidate";
                assertEquals(answered[n].equals("live") ? "vp-trading" : "vp-engineering",
                        d.path("primary_recipients").get(0).asText(), d.toString());
            }
            // Then both nodes put a sender in the same arm
            assertEquals(answered[0], answered[1], sender + " on node 0 and node 1");
            arms.put(sender, answered[0]);
        }
        assertTrue(arms.containsValue("live") && arms.containsValue("candidate"), "50% splits 16 senders: " + arms);

        // ... and either node shows the cluster's figures: both nodes' requests, each node's share
        long candidateArm = arms.values().stream().filter("candidate"::equals).count();
        for (ServeProcess n : List.of(nodes.get(0), nodes.get(1))) {
            JsonNode t = Await.value(Duration.ofSeconds(30), "node " + n.port() + " to show every comparison", () -> {
                JsonNode v = trialOn(n, trial);
                return v != null && v.path("comparisons").asLong() == 2L * senders ? v : null;
            });
            assertEquals(2L * senders, t.path("arms").path("live").path("decisions").asLong(), t.toString());
            assertEquals(2 * candidateArm, t.path("arms").path("candidate").path("answered").asLong(), t.toString());
            assertEquals(2 * (senders - candidateArm), t.path("arms").path("live").path("answered").asLong(), t.toString());
            assertEquals(2L * senders, t.path("diverged").asLong(), t.toString());
            List<Long> perNode = new ArrayList<>();
            t.path("nodes").forEach(x -> perNode.add(x.path("decisions").asLong()));
            Collections.sort(perNode);
            assertEquals(List.of(0L, (long) senders, (long) senders), perNode, t.toString());
        }

        // When an approver rejects the content the canary runs, through node 2, every node's canary goes back to shadow
        String approver = addUser(nodes.get(2), "trial-approver", "approver");
        String candidate = Json.parse(started.body()).path("candidate_revision").asText();
        HttpResponse<String> rejected = http.send(HttpRequest.newBuilder(uri(nodes.get(2), "/workbench/api/drafts/" + draft
                + "/reject")).header("content-type", "application/json").header("authorization", "Bearer " + approver)
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(Json.write(Json.object()
                        .put("note", "misroutes in the canary").put("content_hash", candidate)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, rejected.statusCode(), rejected.body());
        for (ServeProcess n : nodes) {
            Await.until(Duration.ofSeconds(30), "node " + n.port() + " to show the trial as a shadow", () -> {
                JsonNode v = trialOn(n, trial);
                return v != null && v.path("mode").asText().equals("shadow");
            });
        }
        // ... and no sender gets the candidate's answer on any node, those in its bucket included
        for (ServeProcess n : nodes) {
            Await.until(Duration.ofSeconds(30), "node " + n.port() + " to answer every sender with the live rules", () -> {
                try {
                    for (int i = 0; i < senders; i++) {
                        HttpResponse<String> r = post(n, "/v1/broker/route", "{\"envelope\": {\"from_agent\": \"cluster-agent-"
                                + i + "\", \"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\", "
                                + "\"payload\": {}}");
                        if (r.statusCode() != 200 || !live.equals(Json.parse(r.body()).path("rules_revision").asText())) {
                            return false;
                        }
                    }
                    return true;
                } catch (Exception e) {
                    return false;
                }
            });
        }

        // When it is aborted through node 1, no node runs it any more
        HttpResponse<String> aborted = admin(nodes.get(1), "POST", trial + "/abort", null);
        assertEquals(200, aborted.statusCode(), aborted.body());
        for (ServeProcess n : nodes) {
            Await.until(Duration.ofSeconds(30), "node " + n.port() + " to stop the trial", () -> {
                JsonNode v = trialOn(n, trial);
                return v != null && v.path("state").asText().equals("aborted")
                        && java.util.stream.StreamSupport.stream(v.path("nodes").spliterator(), false)
                                .noneMatch(x -> x.path("running").asBoolean());
            });
        }
        for (int i = 0; i < senders; i++) {
            HttpResponse<String> r = post(nodes.get(i % 2), "/v1/broker/route", "{\"envelope\": {\"from_agent\": \"cluster-agent-"
                    + i + "\", \"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\", \"payload\": {}}");
            assertEquals(live, Json.parse(r.body()).path("rules_revision").asText(), r.body());
        }
    }

    /** A: where a draft is made, C: where it is edited, both: where it is activated. Every member serves it within 5 s. */
    @Test
    @Order(40)
    void aDraftMadeOnOneNodeOpensOnAnotherAndItsActivationIsServedByEveryNode() throws Exception {
        String id = created(admin(nodes.get(0), "POST", "/workbench/api/drafts", null));
        JsonNode onC = ok(admin(nodes.get(2), "GET", "/workbench/api/drafts/" + id, null));
        assertEquals(id, onC.path("id").asText());
        edit(nodes.get(2), id, "// made on node 0, edited on node 2\n");
        List<Integer> commits = rules.stream().map(ClusterTest::commits).toList();
        String revision = activate(nodes.get(0), id, 200).path("new_revision").asText();
        for (Path folder : rules) {
            assertTrue(Files.readString(folder.resolve(ROUTING)).contains("// made on node 0, edited on node 2"),
                    "every member's folder mirrors the cluster's revision: " + folder);
        }
        assertEquals(List.of(commits.get(0) + 1, commits.get(1), commits.get(2)), rules.stream().map(ClusterTest::commits).toList(),
                "with --rules-git the activation is one commit, by the node that made it; the members mirroring it commit nothing");
        HttpResponse<String> history = admin(nodes.get(1), "GET", "/workbench/api/activations", null);
        assertTrue(history.body().contains(revision), "the activation history is the cluster's: " + history.body());
    }

    @Test
    @Order(41)
    void ofTwoActivationsRacingFromOneBaseOneWinsAndEveryNodeServesIt() throws Exception {
        String a = created(admin(nodes.get(0), "POST", "/workbench/api/drafts", null));
        String b = created(admin(nodes.get(1), "POST", "/workbench/api/drafts", null));
        edit(nodes.get(0), a, "// racing draft a\n");
        edit(nodes.get(1), b, "// racing draft b\n");
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Future<HttpResponse<String>> fa = two.submit(() -> admin(nodes.get(0), "POST", "/workbench/api/drafts/" + a
                    + "/activate", "{\"note\": \"race a\"}"));
            Future<HttpResponse<String>> fb = two.submit(() -> admin(nodes.get(1), "POST", "/workbench/api/drafts/" + b
                    + "/activate", "{\"note\": \"race b\"}"));
            HttpResponse<String> ra = fa.get(90, TimeUnit.SECONDS);
            HttpResponse<String> rb = fb.get(90, TimeUnit.SECONDS);
            List<Integer> codes = new ArrayList<>(List.of(ra.statusCode(), rb.statusCode()));
            codes.sort(null);
            assertEquals(List.of(200, 409), codes, ra.body() + "\n" + rb.body());
            HttpResponse<String> lost = ra.statusCode() == 409 ? ra : rb;
            assertEquals("draft_out_of_date", Json.parse(lost.body()).path("error").asText(), lost.body());
            String winner = Json.parse((ra.statusCode() == 200 ? ra : rb).body()).path("new_revision").asText();
            awaitServed(winner, nodes);
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    @Order(42)
    void aUserAddedOnOneNodeWorksOnEveryNodeAndOnceRemovedIsRefusedEverywhere() throws Exception {
        String dana = addUser(nodes.get(0), "dana", "operator");
        Await.until(Duration.ofSeconds(2), "dana's token to work on node 2", () -> status(nodes.get(2), dana) == 200);
        addUser(nodes.get(2), "eve", "viewer");
        expect(200, admin(nodes.get(1), "DELETE", "/v1/admin/users/dana", null));
        Await.until(Duration.ofSeconds(2), "dana's token to be refused on nodes 0 and 2",
                () -> status(nodes.get(0), dana) == 403 && status(nodes.get(2), dana) == 403);
    }

    /** Live decisions and a draft's impact cover every member's log, and say which members answered. */
    @Test
    @Order(44)
    void liveDecisionsAndImpactSeeEveryMembersTraffic() throws Exception {
        String probe = "traffic-probe-" + System.nanoTime();
        assertEquals(200, post(nodes.get(2), "/v1/broker/route", TRADE.replace("foresight", probe)).statusCode());
        Await.until(Duration.ofSeconds(15), "node 0's live decisions to find node 2's decision", () -> {
            try {
                JsonNode found = ok(admin(nodes.get(0), "GET", "/workbench/api/decisions?q=" + probe, null));
                return found.path("decisions").size() == 1 && found.path("members").size() == NODES;
            } catch (Exception e) {
                return false;
            }
        });
        JsonNode found = ok(admin(nodes.get(0), "GET", "/workbench/api/decisions?q=" + probe, null));
        for (JsonNode m : found.path("members")) {
            assertTrue(m.path("answered").asBoolean(), found.toString());
        }
        String id = created(admin(nodes.get(0), "POST", "/workbench/api/drafts", null));
        HttpResponse<String> started = admin(nodes.get(0), "POST", "/workbench/api/drafts/" + id + "/impact", "{\"decision_log\": true}");
        assertEquals(202, started.statusCode(), started.body());
        String job = Json.parse(started.body()).path("id").asText();
        Await.until(Duration.ofSeconds(60), "the impact to finish", () -> {
            try {
                return !"running".equals(ok(admin(nodes.get(0), "GET", "/workbench/api/impact/" + job, null)).path("state").asText());
            } catch (Exception e) {
                return false;
            }
        });
        JsonNode log = ok(admin(nodes.get(0), "GET", "/workbench/api/impact/" + job, null)).path("report").path("decision_log");
        assertEquals(NODES, log.path("members").size(), log.toString());
        for (JsonNode m : log.path("members")) {
            assertTrue(m.path("answered").asBoolean(), log.path("members").toString());
        }
        assertTrue(log.path("records").asLong() >= NODES, "the members' records were replayed: " + log.path("records"));
        expect(200, admin(nodes.get(0), "DELETE", "/workbench/api/drafts/" + id, null));
    }

    /**
     * Activations in a row, each through the next node: every member serves each within 5 s of its
     * answer. {@code make bench-cluster} runs 30 ({@code -Dsignalman.cluster.activations=30}) for
     * {@code cluster.activation_convergence_ms}; the suite runs 3.
     */
    @Test
    @Order(46)
    void activationsInARowThroughEveryNodeConverge() throws Exception {
        int n = Integer.getInteger("signalman.cluster.activations", 3);
        for (int i = 0; i < n; i++) {
            ServeProcess through = nodes.get(i % NODES);
            String id = created(admin(through, "POST", "/workbench/api/drafts", null));
            edit(through, id, "// activation " + i + " in a row\n");
            activate(through, id, 200);
        }
    }

    @Test
    @Order(43)
    void aHandEditOfOneFolderAndAReloadAreRefusedAndTheFolderIsPutBack() throws Exception {
        HttpResponse<String> reload = admin(nodes.get(1), "POST", "/v1/rules/reload", null);
        assertEquals(409, reload.statusCode(), reload.body());
        assertEquals("cluster_rules", Json.parse(reload.body()).path("error").asText());
        Path drl = rules.get(1).resolve(ROUTING);
        String before = Files.readString(drl);
        Files.writeString(drl, before + "\n// an analyst's note: this node runs other rules\n");
        Await.until(Duration.ofSeconds(20), "the hand edit to be put back", () -> java.util.Objects.equals(readQuietly(drl), before));
        assertTrue(nodes.get(1).output().contains("was changed by hand"), "the refusal says how rules change");
        assertTrue(clusterView(nodes.get(0)).path("consistent").asBoolean());
    }

    /**
     * Clients walk their own instances idle -> running -> done, each request to the next node in
     * turn, retrying elsewhere when a node fails them. One node is killed with SIGKILL mid-load.
     * An acknowledged step must never be undone: a later step never finds the instance behind
     * what was acknowledged, and at the end every instance is where its client last saw it.
     */
    /**
     * {@code replay --members}: the archive replayed as a Jet job over the three nodes gives the
     * report one machine gives, with every member's share listed: the same records sampled for
     * determinism, and {@code --determinism all} carried to every member. (It runs on this class's
     * nodes rather than on a cluster of its own: a node's start is most of what such a test costs.)
     */
    @Test
    @Order(45)
    void replayOverTheMembersMergesTheSameReportAsOneMachineAndListsTheirShares() throws Exception {
        Path work = dir.resolve("replay");
        Path candidate = TestBundles.copyOfRulesWithToolSmith(work.resolve("candidate"));
        String archive = TestBundles.FIXTURES.toAbsolutePath().toString();
        Path single = work.resolve("single.json");
        Path spread = work.resolve("cluster.json");
        Path everyRecord = work.resolve("cluster-all.json");

        CliRunner.Result one = CliRunner.run("replay", "--quiet", "--rules", candidate.toString(), "--report",
                single.toString(), archive);
        CliRunner.Result three = CliRunner.run("replay", "--members", String.join(",", members), "--rules",
                candidate.toString(), "--report", spread.toString(), archive);
        CliRunner.Result all = CliRunner.run("replay", "--members", String.join(",", members), "--rules", candidate.toString(),
                "--determinism", "all", "--report", everyRecord.toString(), archive);

        assertEquals(1, one.code(), one.out() + one.err());
        assertEquals(1, three.code(), three.out() + three.err());
        JsonNode clustered = Json.parse(Files.readAllBytes(spread));
        JsonNode shares = clustered.get("members");
        assertEquals(NODES, shares.size(), clustered.toString());
        Set<String> seen = new HashSet<>();
        long shared = 0;
        for (JsonNode m : shares) {
            seen.add(m.get("member").asText());
            shared += m.get("records").asLong();
            assertTrue(m.get("records").asLong() > 0, "each member replays a share: " + shares);
        }
        assertEquals(Set.copyOf(members), seen);
        assertEquals(clustered.get("records").asLong(), shared);
        assertEquals(withoutTimes(Json.parse(Files.readAllBytes(single))), withoutTimes(clustered));
        // The default sample goes by archive position, so the members checked the records one machine checks (the
        // reports are equal, determinism included); --determinism all reached every member.
        JsonNode sampled = clustered.get("determinism");
        assertEquals("sample", sampled.get("mode").asText());
        assertTrue(sampled.get("checked").asLong() < sampled.get("of").asLong(), sampled.toString());
        assertEquals(1, all.code(), all.out() + all.err());
        JsonNode checkedAll = Json.parse(Files.readAllBytes(everyRecord)).get("determinism");
        assertEquals("all", checkedAll.get("mode").asText());
        assertEquals(clustered.get("records").asLong(), checkedAll.get("checked").asLong(), checkedAll.toString());
    }

    private static JsonNode withoutTimes(JsonNode report) {
        ObjectNode copy = (ObjectNode) report.deepCopy();
        copy.remove(List.of("elapsed_seconds", "records_per_second", "members"));
        return copy;
    }

    @Test
    @Order(50)
    void aNodeKilledUnderLoadLosesNoAcknowledgedStateChange() throws Exception {
        int clients = 6;
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger ackAfterKill = new AtomicInteger();
        AtomicInteger ackBeforeKill = new AtomicInteger();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<ServeProcess> alive = new java.util.concurrent.CopyOnWriteArrayList<>(nodes);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            running.add(pool.submit(() -> {
                int turn = client;
                for (int k = 0; !stop.get(); k++) {
                    String id = "load-" + client + "-" + k;
                    String[][] walk = {{"/v1/fsm/instances", "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}", "idle"},
                            {"/v1/fsm/instances/" + id + "/actions", "{\"action\": \"start\"}", "running"},
                            {"/v1/fsm/instances/" + id + "/actions", "{\"action\": \"finish\"}", "done"}};
                    for (String[] step : walk) {
                        turn = ensure(alive, turn, id, step[0], step[1], step[2], acknowledged, lost);
                        (killed.get() ? ackAfterKill : ackBeforeKill).incrementAndGet();
                    }
                }
                return null;
            }));
        }
        Await.until(Duration.ofSeconds(60), "the clients to acknowledge 90 steps on three nodes before the kill",
                () -> ackBeforeKill.get() >= 90 || running.stream().anyMatch(Future::isDone));
        ServeProcess victim = nodes.get(2);
        alive.remove(victim);
        victim.process().destroyForcibly();
        victim.waitFor(Duration.ofSeconds(10));
        killed.set(true);
        // Keep the load on until the survivors have served a good while without the victim.
        Await.until(Duration.ofSeconds(90), "the two survivors to acknowledge 60 steps after the kill",
                () -> ackAfterKill.get() >= 60 || running.stream().anyMatch(Future::isDone));
        stop.set(true);
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdownNow();
        System.out.printf("kill under load: %d instances walked, %d steps acknowledged after the kill; %d answers 503, %d connections"
                + " failed, %d retries found their step already applied%n", acknowledged.size(), ackAfterKill.get(),
                unavailable.get(), connectionFailures.get(), appliedUnanswered.get());
        assertEquals(List.of(), lost, "acknowledged state changes lost");
        assertTrue(ackAfterKill.get() >= 60, "the survivors kept serving: " + ackAfterKill.get());
        for (ServeProcess n : alive) {
            for (Map.Entry<String, String> e : acknowledged.entrySet()) {
                HttpResponse<String> r = get(n, "/v1/fsm/instances/" + e.getKey());
                assertEquals(200, r.statusCode(), e.getKey() + ": " + r.body());
                String state = Json.parse(r.body()).path("current_state").asText();
                assertTrue(atOrAfter(state, e.getValue()), e.getKey() + " acknowledged " + e.getValue() + " but is " + state);
            }
        }
        Await.until(Duration.ofSeconds(60), "the survivors to see two reachable members", () -> alive.stream().allMatch(n -> {
            JsonNode c = clusterView(n);
            if (c == null || c.path("members").size() != NODES - 1) {
                return false;
            }
            boolean all = true;
            for (JsonNode m : c.path("members")) {
                all &= m.path("reachable").asBoolean();
            }
            return all;
        }));
    }

    /** With node 2 killed (above), an activation on node 1 goes through; node 2, restarted on its stale folder, serves it. */
    @Test
    @Order(55)
    void aMemberBackFromTheDeadServesTheRevisionActivatedWhileItWasAway() throws Exception {
        String id = created(admin(nodes.get(1), "POST", "/workbench/api/drafts", null));
        edit(nodes.get(1), id, "// activated while node 2 was down\n");
        String revision = activate(nodes.get(1), id, 200).path("new_revision").asText();
        String stale = Files.readString(rules.get(2).resolve(ROUTING));
        assertFalse(stale.contains("while node 2 was down"), "node 2's folder is stale");
        // Back with a tighter budget than the others', so that it cannot build the revision @Order(57) makes.
        List<String> args = new ArrayList<>(List.of(launchArgs.get(2)));
        args.addAll(List.of("--max-rule-combinations", "1"));
        ServeProcess back = ServeProcess.launch(dir.resolve("node2").resolve("data"), Map.of("SIGNALMAN_ADMIN_TOKEN", TOKEN),
                args.toArray(String[]::new));
        nodes.set(2, back);
        back.awaitServing(Duration.ofSeconds(120));
        HttpResponse<String> ready = get(back, "/ready");
        assertEquals(revision, Json.parse(ready.body()).path("rules_revision").asText(), ready.body());
        assertTrue(Files.readString(rules.get(2).resolve(ROUTING)).contains("while node 2 was down"));
    }

    /**
     * A member that cannot build the new revision (node 2's budget is tighter) is named in the
     * answer and on /v1/cluster, and decides nothing rather than decide on old rules; a rollback
     * through another node brings it back.
     */
    @Test
    @Order(57)
    void aMemberThatCannotBuildTheRevisionSaysSoAndStopsDecidingUntilARollback() throws Exception {
        String before = Json.parse(get(nodes.get(0), "/ready").body()).path("rules_revision").asText();
        String id = created(admin(nodes.get(0), "POST", "/workbench/api/drafts", null));
        long version = ok(admin(nodes.get(0), "GET", "/workbench/api/drafts/" + id, null)).path("version").asLong();
        ok(admin(nodes.get(0), "PUT", "/workbench/api/drafts/" + id + "/file?path=broker/two-cards.drl", Json.write(Json.object()
                .put("text", TestBundles.brokerRule("two cards at once", 1, "    Message( subtype == \"two.cards\" )\n"
                        + "    AgentCard()\n    AgentCard()\n")).put("version", version))));
        HttpResponse<String> r = admin(nodes.get(0), "POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"two cards\"}");
        JsonNode rec = ok(r);
        String revision = rec.path("new_revision").asText();
        String node2 = members.get(2);
        JsonNode named = null;
        for (JsonNode m : rec.path("members")) {
            if (m.path("node").asText().equals(node2)) {
                named = m;
            }
        }
        assertTrue(named != null && !named.path("serves").asBoolean() && named.hasNonNull("revision_unavailable"), r.body());
        awaitServed(revision, List.of(nodes.get(0), nodes.get(1)));
        String route = TRADE;
        HttpResponse<String> refused = post(nodes.get(2), "/v1/broker/route", route);
        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals("revision_unavailable", Json.parse(refused.body()).path("error").asText());
        assertEquals(200, post(nodes.get(0), "/v1/broker/route", route).statusCode());
        assertTrue(clusterView(nodes.get(1)).toString().contains("revision_unavailable"), "named on /v1/cluster");
        // When an operator rolls back through node 1
        ok(admin(nodes.get(1), "POST", "/workbench/api/rollback", Json.write(Json.object().put("revision", before)
                .put("note", "node 2 cannot build two cards"))));
        // Then every member, node 2 included, serves the earlier revision and decides again
        awaitServed(before, nodes);
        assertEquals(200, post(nodes.get(2), "/v1/broker/route", route).statusCode());
    }

    /** Every node's audit entries, in one chain that verifies. */
    @Test
    @Order(56)
    void theAuditEntriesOfEveryNodeFormOneSequenceThatVerifies() throws Exception {
        HttpResponse<String> lines = admin(nodes.get(2), "GET", "/v1/audit?format=jsonl&limit=1000", null);
        assertEquals(200, lines.statusCode(), lines.body());
        Path export = dir.resolve("audit-export.jsonl");
        Files.writeString(export, lines.body());
        Set<String> writers = new java.util.TreeSet<>();
        long seq = 0;
        for (String l : lines.body().split("\n")) {
            JsonNode e = Json.parse(l);
            assertEquals(++seq, e.path("seq").asLong(), l);
            writers.add(e.path("node").asText());
        }
        assertEquals(Set.copyOf(members), writers, "entries from every node");
        CliRunner.Result verified = CliRunner.run("audit", "verify", "--export", export.toString());
        assertEquals(0, verified.code(), verified.out() + verified.err());
        Files.writeString(export, lines.body().replaceFirst("dana", "dina"));
        assertEquals(1, CliRunner.run("audit", "verify", "--export", export.toString()).code(), "a changed entry breaks it");
    }

    /**
     * The other two members leave (SIGTERM): node 0 alone is below --cluster-quorum 2. It refuses
     * changes to the control plane (503 quorum_lost) and keeps deciding on its last revision.
     */
    @Test
    @Order(70)
    void aMemberBelowTheQuorumRefusesChangesAndKeepsDeciding() throws Exception {
        for (ServeProcess n : List.of(nodes.get(1), nodes.get(2))) {
            n.process().destroy();
            n.waitFor(Duration.ofSeconds(60));
        }
        ServeProcess alone = nodes.get(0);
        Await.until(Duration.ofSeconds(30), "node 0 to be alone", () -> {
            JsonNode c = clusterView(alone);
            return c != null && c.path("members").size() == 1;
        });
        Await.until(Duration.ofSeconds(10), "node 0 to refuse a user change for want of a quorum", () -> {
            try {
                HttpResponse<String> r = admin(alone, "POST", "/v1/admin/users", "{\"name\": \"finn\", \"roles\": [\"viewer\"]}");
                return r.statusCode() == 503 && r.body().contains("quorum_lost");
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        HttpResponse<String> draft = admin(alone, "POST", "/workbench/api/drafts", null);
        assertEquals(503, draft.statusCode(), draft.body());
        assertEquals("quorum_lost", Json.parse(draft.body()).path("error").asText());
        assertEquals(200, post(alone, "/v1/broker/route", TRADE).statusCode());
    }

    private static final String ROUTING = "broker/routing.drl";
    private static final String TRADE = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\", \"payload\": {\"qty\": 3}}";
    private static final String RULE_HEAD = "rule \"";
    /** What each activation took, from its request until every member served it (ms). */
    private final List<Long> convergence = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Long> afterAnswer = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static String created(HttpResponse<String> r) throws Exception {
        assertEquals(201, r.statusCode(), r.body());
        return Json.parse(r.body()).path("id").asText();
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertEquals(200, r.statusCode(), r.body());
        return Json.parse(r.body());
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> r) {
        assertEquals(status, r.statusCode(), r.body());
        return r;
    }

    /** The commits on the branch checked out in {@code folder}'s repository. */
    private static int commits(Path folder) {
        try (org.eclipse.jgit.api.Git git = org.eclipse.jgit.api.Git.open(folder.toFile())) {
            return (int) java.util.stream.StreamSupport.stream(git.log().call().spliterator(), false).count();
        } catch (IOException | org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new AssertionError("cannot read the repository of " + folder, e);
        }
    }

    /** Adds {@code line} after the first rule's head in the draft's routing file, through node {@code n}. */
    private void edit(ServeProcess n, String id, String line) throws Exception {
        JsonNode d = ok(admin(n, "GET", "/workbench/api/drafts/" + id, null));
        String text = ok(admin(n, "GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null)).path("text").asText();
        int at = text.indexOf(RULE_HEAD);
        int eol = text.indexOf('\n', at) + 1;
        ok(admin(n, "PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.substring(0, eol) + line + text.substring(eol)).put("version", d.path("version").asLong()))));
    }

    /** Activates through {@code n}; with 200, checks the answer's members and that every live member serves it within 5 s. */
    private JsonNode activate(ServeProcess n, String id, int status) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = admin(n, "POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"cluster test\"}");
        assertEquals(status, r.statusCode(), r.body());
        JsonNode rec = Json.parse(r.body());
        String revision = rec.path("new_revision").asText();
        for (JsonNode m : rec.path("members")) {
            assertTrue(!m.path("reachable").asBoolean() || m.path("serves").asBoolean(), "the answer waits for the members: " + r.body());
        }
        assertTrue(rec.path("members").size() >= 2, r.body());
        long answered = System.nanoTime();
        awaitServed(revision, nodes.stream().filter(x -> x.process().isAlive()).toList());
        long done = System.nanoTime();
        assertTrue(done - answered < 5_000_000_000L, "every member serves within 5 s of the answer");
        convergence.add((done - t0) / 1_000_000);
        afterAnswer.add((done - answered) / 1_000_000);
        System.out.printf("cluster.activation_convergence_ms %d (answer %d ms, every member serving %d ms after it)%n",
                (done - t0) / 1_000_000, (answered - t0) / 1_000_000, (done - answered) / 1_000_000);
        return rec;
    }

    private void awaitServed(String revision, List<ServeProcess> which) {
        Await.until(Duration.ofSeconds(5), "every member to serve " + revision, () -> which.stream().allMatch(n -> {
            try {
                return revision.equals(Json.parse(get(n, "/ready").body()).path("rules_revision").asText());
            } catch (Exception e) {
                return false;
            }
        }));
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Adds a user through {@code n} and returns their token. A user change takes a slow hash: on a
     * machine the whole suite keeps busy it can pass the request's deadline (503, and the change
     * still takes effect); the token is then had by a rotation, through the same node.
     */
    private String addUser(ServeProcess n, String name, String role) throws Exception {
        HttpResponse<String> r = admin(n, "POST", "/v1/admin/users", "{\"name\": \"" + name + "\", \"roles\": [\"" + role + "\"]}");
        if (r.statusCode() == 201) {
            return Json.parse(r.body()).path("token").asText();
        }
        assertEquals(503, r.statusCode(), r.body());
        Await.until(Duration.ofSeconds(30), name + " to be added", () -> {
            try {
                return admin(n, "GET", "/v1/admin/users", null).body().contains("\"" + name + "\"");
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        for (int i = 0; ; i++) {
            HttpResponse<String> rotated = admin(n, "POST", "/v1/admin/users/" + name + "/rotate", null);
            if (rotated.statusCode() == 200 || i == 5) {
                return ok(rotated).path("token").asText();
            }
        }
    }

    /** What GET /v1/audit answers {@code token} on {@code n}. */
    private int status(ServeProcess n, String token) {
        try {
            return http.send(HttpRequest.newBuilder(uri(n, "/v1/audit?limit=1")).header("authorization", "Bearer " + token)
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /**
     * Clustered too, no event loop of any node was blocked while it served, whatever happened above.
     * Before a node listens, its event loop runs the one-time set-up (building the routes, loading
     * their classes): with another test JVM busy on the same two cores, that can pass Vert.x's 2 s
     * warning without delaying a single request, so only the log from "serving on" counts.
     */
    @Test
    @Order(60)
    void noNodeEverBlockedAnEventLoop() {
        for (int i = 0; i < NODES; i++) {
            String log = nodes.get(i).output();
            int serving = log.indexOf("serving on http");
            assertTrue(serving >= 0, "node " + i + " never served:\n" + log);
            assertFalse(log.substring(serving).contains("has been blocked for"), "node " + i + " blocked a thread:\n" + log);
        }
    }

    /**
     * Sends one step until it is known to have applied, to the next live node each time. A step
     * whose answer was lost (connection reset, 503 while the cluster moves the dead node's keys)
     * may have applied; the retry then meets the state it moved to (409), which the client
     * checks by reading. Returns the turn to continue from.
     */
    private int ensure(List<ServeProcess> alive, int turn, String id, String path, String body, String target,
                       Map<String, String> acknowledged, List<String> lost) throws Exception {
        String before = acknowledged.get(id);
        for (int attempt = 0; attempt < 200; attempt++) {
            ServeProcess n = alive.get(Math.floorMod(turn++, alive.size()));
            try {
                HttpResponse<String> r = post(n, path, body);
                if (r.statusCode() == 200 || r.statusCode() == 201) {
                    acknowledged.put(id, target);
                    return turn;
                }
                if (r.statusCode() == 409) {
                    // Either an earlier attempt of ours applied, or an acknowledged step was lost.
                    HttpResponse<String> now = get(n, "/v1/fsm/instances/" + id);
                    String state = now.statusCode() == 200 ? Json.parse(now.body()).path("current_state").asText() : "absent";
                    if (state.equals(target)) {
                        appliedUnanswered.incrementAndGet();
                        acknowledged.put(id, target);
                        return turn;
                    }
                    lost.add(id + ": acknowledged " + before + ", then found " + state + " (" + r.body() + ")");
                    return turn;
                }
                if (r.statusCode() != 503) {
                    lost.add(id + ": unexpected " + r.statusCode() + " " + r.body());
                    return turn;
                }
                unavailable.incrementAndGet();
                // A client's contract, not a wait for the test: come back after Retry-After.
                Thread.sleep(1000L * Long.parseLong(r.headers().firstValue("retry-after").orElse("1")));
            } catch (IOException | RuntimeException e) {
                connectionFailures.incrementAndGet();
                // The node died under this request (or is dying): the next one is tried at once.
            }
        }
        lost.add(id + ": no node applied " + body + " in 200 attempts");
        return turn;
    }

    private static boolean atOrAfter(String state, String acknowledged) {
        List<String> order = List.of("idle", "running", "done");
        return order.indexOf(state) >= order.indexOf(acknowledged);
    }

    private JsonNode clusterView(ServeProcess n) {
        try {
            HttpResponse<String> r = get(n, "/v1/cluster");
            return r.statusCode() == 200 ? Json.parse(r.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }

    private HttpResponse<String> post(ServeProcess n, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(n, path)).header("content-type", "application/json")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A request with the admin token (the trials endpoints and the workbench's writes need it). */
    private HttpResponse<String> admin(ServeProcess n, String method, String path, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(n, path)).header("content-type", "application/json")
                .header("authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The trial as {@code n} shows it, or null when it does not answer 200. */
    private JsonNode trialOn(ServeProcess n, String path) {
        try {
            HttpResponse<String> r = admin(n, "GET", path, null);
            return r.statusCode() == 200 ? Json.parse(r.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }

    private HttpResponse<String> postKeyed(ServeProcess n, String path, String body, String key)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(n, path)).header("content-type", "application/json")
                .header("idempotency-key", key).timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(ServeProcess n, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(n, path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ServeProcess n, String path) {
        return URI.create("http://127.0.0.1:" + n.port() + path);
    }
}
