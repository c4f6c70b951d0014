package io.signalman.http;

import static io.signalman.http.HttpCalls.send;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.RuleDropper;
import io.signalman.RuleDropper.RuleRef;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Any bundle that loads never answers 5xx for a valid input: over bundles made from the
 * shipped rules by dropping a generated subset of their rules (none, all, and between; a tier or a
 * whole pack left with no rule once broke every decision endpoint), every decision endpoint answers a valid
 * request with a 2xx or a 4xx. One server serves every try; each try rewrites its rules folder
 * and reloads it, so the tries are few (a reload compiles).
 */
@AddLifecycleHook(TestServer.ForProperties.class)
class LoadableBundleProperties {

    private static final String TOKEN = "loadable-bundle-token";
    private static final List<RuleRef> SHIPPED = RuleDropper.rules(TestBundles.RULES);
    private static final AtomicInteger IDS = new AtomicInteger();

    /** A server on a copy of the shipped rules (in its folder's rules/), without scenarios or golden history. */
    private static final TestServer server = TestServer.starting(dir -> {
        Path rules = TestBundles.copyOfRules(dir);
        RuleDropper.dropScenarios(rules);
        Files.createDirectories(dir.resolve("no-fixtures"));
        return Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(dir.resolve("no-fixtures"))
                .withData(dir.resolve("data")).withAdminToken(TOKEN));
    });

    @Property(tries = 8, edgeCases = net.jqwik.api.EdgeCasesMode.FIRST)
    void aBundleThatLoadsNeverAnswers5xxToAValidRequest(@ForAll("dropped") Set<RuleRef> drop) throws IOException {
        Path fresh = server.dir().resolve("next-" + IDS.incrementAndGet());
        TestBundles.copyTree(TestBundles.RULES, fresh);
        RuleDropper.drop(fresh, drop);
        replaceRules(fresh);
        HttpResponse<String> reload = post("/v1/rules/reload", "", TOKEN);
        // A bundle the lint refuses (a dropped rule can leave another shadowed or tied) is no case here
        Assume.that(reload.statusCode() == 200);

        int id = IDS.incrementAndGet();
        List<HttpResponse<String>> answers = new ArrayList<>();
        answers.add(post("/v1/broker/route", "{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},"
                + "\"type\":\"event\",\"subtype\":\"trade.executed\"}", null));
        answers.add(post("/v1/broker/route", "{\"envelope\":{\"from_agent\":\"stranger\",\"priority\":\"critical\"},"
                + "\"type\":\"escalation\",\"subtype\":\"misc.hello\"}", null));
        answers.add(post("/v1/signals/route", "{\"agent\":\"reviewer\",\"signal\":{\"kind\":\"user_message\",\"payload\":{\"command\":\"go\"}}}", null));
        answers.add(post("/v1/signals/route", "{\"agent\":\"summarizer\",\"signal\":{\"kind\":\"stop\"}}", null));
        answers.add(post("/v1/fsm/instances", "{\"id\":\"agent-" + id + "\",\"machine\":\"transaction\"}", null));
        answers.add(post("/v1/signals/route", "{\"agent\":\"agent-" + id + "\",\"signal\":{\"kind\":\"timer\"}}", null));
        answers.add(post("/v1/fsm/instances/agent-" + id + "/actions", "{\"action\":\"begin\",\"payload\":{}}", null));
        answers.add(post("/v1/dispatch", "{\"channel\":\"telegram\",\"chat\":{\"type\":\"group\",\"id\":\"-100123\"},"
                + "\"sender\":\"U1\",\"message\":\"my order is late\"}", null));
        answers.add(post("/v1/handoff/conversations", "{\"crew\":\"exam\",\"id\":\"c-" + id + "\"}", null));
        answers.add(post("/v1/handoff/conversations/c-" + id + "/turns",
                "{\"agent\":\"teacher\",\"response\":\"Question? [QUESTION]\",\"tool_calls\":0}", null));
        answers.add(post("/v1/handoff/conversations", "{\"crew\":\"support\",\"id\":\"s-" + id + "\"}", null));
        answers.add(post("/v1/handoff/conversations/s-" + id + "/turns",
                "{\"agent\":\"triage\",\"response\":\"Let me look.\",\"tool_calls\":0}", null));
        for (HttpResponse<String> a : answers) {
            assertTrue(a.statusCode() < 500, () -> "without " + drop + ": " + a.request().uri() + " answered "
                    + a.statusCode() + " " + a.body());
        }
    }

    /** Subsets of the shipped rules: the empty set and every rule are among the first tries. */
    @Provide
    Arbitrary<Set<RuleRef>> dropped() {
        Arbitrary<Set<RuleRef>> some = Arbitraries.of(SHIPPED).set().ofMaxSize(SHIPPED.size());
        return Arbitraries.oneOf(some, Arbitraries.just(Set.copyOf(SHIPPED)), Arbitraries.just(Set.of()),
                Arbitraries.of(packs()).map(LoadableBundleProperties::everyRuleOf));
    }

    private static List<String> packs() {
        return SHIPPED.stream().map(r -> r.file().endsWith(".routes.drl") ? "signals" : r.file().substring(0, r.file().indexOf('/')))
                .distinct().toList();
    }

    /** Every rule of one pack (the signals pack's strategy routes live in fsm/*.routes.drl). */
    private static Set<RuleRef> everyRuleOf(String pack) {
        Set<RuleRef> out = new HashSet<>();
        for (RuleRef r : SHIPPED) {
            boolean signals = r.file().startsWith("signals/") || r.file().endsWith(".routes.drl");
            if (pack.equals("signals") ? signals : r.file().startsWith(pack + "/") && !signals) {
                out.add(r);
            }
        }
        return out;
    }

    /** Puts {@code fresh}'s DRL files in place of the served ones (reference data is unchanged). */
    private static void replaceRules(Path fresh) throws IOException {
        for (RuleRef r : SHIPPED.stream().map(r -> new RuleRef(r.file(), "")).distinct().toList()) {
            Files.copy(fresh.resolve(r.file()), server.dir().resolve("rules").resolve(r.file()),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static HttpResponse<String> post(String path, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return send(b);
    }
}
