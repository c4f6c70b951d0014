package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nothing blocks an event loop: the shipped rules served with a tight
 * blocked-thread limit (100 ms), start-up included, under a bounded concurrent load on every
 * decision endpoint and event-bus address. One blocked-thread warning in Signalman's code fails
 * the test.
 */
class EventLoopTest {

    private static final Logger LOG = LoggerFactory.getLogger(EventLoopTest.class);
    private static final int CLIENTS = 4;
    private static final int ROUNDS = 30;
    private static final String MESSAGE = "{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},"
            + "\"type\":\"event\",\"subtype\":\"trade.executed\"}";
    private static final String SIGNAL = "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\"}}";
    private static final String DISPATCH = "{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"},"
            + " \"sender\": \"U1\", \"message\": \"my order is late\"}";

    @TempDir
    Path tmp;

    @Test
    void noEventLoopIsBlockedWhileEveryEndpointIsUnderLoad() throws Exception {
        ServerConfig config = TestBundles.seedServer().withData(tmp).withBlockedWarnMs(100);
        AtomicInteger requests = new AtomicInteger();
        try (Server server = Server.start(config)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                running.add(clients.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        everyEndpoint(http, server, client + "-" + round, requests);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(50, TimeUnit.SECONDS);
            }
            clients.shutdown();
            LOG.info("{} requests on every endpoint; {} blocked-thread warnings, {} in Signalman code", requests.get(),
                    server.blockedThreadWarnings(), server.blockedInSignalmanCode());
            // NOTE: the count that fails the test is warnings with our code on the blocked stack.
            // On a shared 2-core machine at load 12, the loop was also seen stalled 118-172 ms
            // inside Netty (header encoding, buffer allocation): the scheduler, not a blocking call.
            assertEquals(0, server.blockedInSignalmanCode(), "a Signalman handler blocked an event loop (the log says where)");
        }
    }

    /** One of each: HTTP decision endpoints, the stateful ones in order, then the bus addresses. */
    private static void everyEndpoint(HttpClient http, Server server, String id, AtomicInteger requests) throws Exception {
        post(http, server, "/v1/broker/route", MESSAGE, 200, requests);
        post(http, server, "/v1/broker/route:batch", "[" + MESSAGE + "," + MESSAGE + "]", 200, requests);
        post(http, server, "/v1/signals/route", SIGNAL, 200, requests);
        post(http, server, "/v1/dispatch", DISPATCH, 200, requests);
        post(http, server, "/v1/fsm/instances", "{\"id\": \"el-" + id + "\", \"machine\": \"review-flow\"}", 201, requests);
        post(http, server, "/v1/fsm/instances/el-" + id + "/actions", "{\"action\": \"start\"}", 200, requests);
        post(http, server, "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"el-" + id + "\"}", 201, requests);
        post(http, server, "/v1/handoff/conversations/el-" + id + "/turns",
                "{\"agent\": \"teacher\", \"response\": \"Question 1: 2+2? [QUESTION]\", \"tool_calls\": 0}", 200, requests);
        post(http, server, "/v1/handoff/conversations/el-" + id + "/user-input", "{}", 200, requests);
        EventBus bus = server.vertx().eventBus();
        for (String[] a : new String[][] {{BrokerApi.ADDRESS, MESSAGE}, {SignalsApi.ADDRESS, SIGNAL}, {DispatchApi.ADDRESS, DISPATCH},
                {FsmApi.ADDRESS, "{\"id\": \"el-" + id + "\", \"action\": \"finish\"}"},
                {HandoffApi.CREATE_ADDRESS, "{\"crew\": \"exam\"}"}}) {
            bus.request(a[0], new JsonObject(a[1])).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
            requests.incrementAndGet();
        }
    }

    private static void post(HttpClient http, Server server, String path, String body, int status, AtomicInteger requests)
            throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), path + ": " + r.body());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"), path);
        requests.incrementAndGet();
    }
}
