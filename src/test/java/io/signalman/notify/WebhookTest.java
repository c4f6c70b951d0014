package io.signalman.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.signalman.Await;
import io.signalman.control.MemoryJournal;
import io.signalman.json.Json;
import io.signalman.people.AuditLog;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --notify-webhook: the hand-offs are told, a refused post is tried again, and the action never waits for the receiver. */
class WebhookTest {

    @TempDir
    Path dir;

    @Test
    void handOffsAreToldOnceEachTriedAgainWhenRefusedAndOnlyThisNodesOwn() throws Exception {
        List<JsonNode> received = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            // The first post is refused: the sender must try it again
            int status = calls.incrementAndGet() == 1 ? 503 : 204;
            if (status == 204) {
                try {
                    received.add(Json.parse(new String(body, StandardCharsets.UTF_8)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        receiver.start();
        MemoryJournal journal = new MemoryJournal();
        AuditLog here = AuditLog.openShared(dir, journal, null, "a:1");
        AuditLog there = AuditLog.openShared(dir, journal, null, "b:2");
        try (Webhook hook = new Webhook(URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"), "a:1", 50)
                .follow(here)) {
            Principal ana = new Principal("ana", EnumSet.of(Role.AUTHOR), "token");
            long before = System.nanoTime();
            here.append(ana, "review_requested", Json.object().put("draft", "d1").put("note", "please"));
            here.append(ana, "user_added", Json.object().put("subject", "eve"));
            there.append(new Principal("bo", EnumSet.of(Role.APPROVER), "token"), "draft_approved", Json.object().put("draft", "d1"));
            here.append(ana, "activated", Json.object().put("draft", "d1").put("new_revision", "sha256:" + "a".repeat(64)));
            assertTrue(System.nanoTime() - before < 2_000_000_000L, "appending never waits for the receiver");
            Await.until(Duration.ofSeconds(10), "both of this node's hand-offs to arrive", () -> received.size() >= 2);
            assertEquals(List.of("review_requested", "activated"), received.stream().map(e -> e.path("event").asText()).sorted(
                    (x, y) -> x.equals("review_requested") ? -1 : 1).toList(), "users are no event; the approval was node b's to tell");
            assertEquals("please", received.stream().filter(e -> e.path("event").asText().equals("review_requested")).findFirst()
                    .orElseThrow().path("note").asText());
            // (the receiver has a post before its sender counts it as sent: wait for the count)
            Await.until(Duration.ofSeconds(10), "both posts counted as sent", () -> hook.sent() >= 2);
            assertEquals(2, hook.sent());
            assertEquals(3, calls.get(), "the refused post was tried again");
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void onlyAnHttpUrlWithAHostIsTaken() {
        assertThrows(IllegalArgumentException.class, () -> Webhook.check(URI.create("file:///etc/passwd")));
        assertThrows(IllegalArgumentException.class, () -> Webhook.check(URI.create("http:/no-host")));
        assertEquals(URI.create("https://chat.example/hook"), Webhook.check(URI.create("https://chat.example/hook")));
    }
}
