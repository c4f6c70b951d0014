package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.BodyEndpoints.Endpoint;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of random and mutated bodies posted to every endpoint of a real server:
 * mutations of each endpoint's valid example (types flipped, fields deleted, duplicated or
 * added, text truncated, unicode and control characters injected, huge numbers, deep nesting)
 * and random bytes. Nothing a client sends may get a 5xx; every error is our JSON; afterwards the
 * server still decides correctly and its decision log reads back whole.
 *
 * <p>Seeded, so a failure is reproducible: {@code -Dfuzz.seed=N}. Bounded: {@link #REQUESTS}
 * requests, at most {@link #IN_FLIGHT} at a time.
 */
class BadInputFuzzTest {

    private static final int REQUESTS = 2500;
    private static final int IN_FLIGHT = 8;
    private static final long SEED = Long.getLong("fuzz.seed", 20_261_121L);

    private static final String[] NASTY_TEXT = {"\\u0000", "\u0001", "\\ud800", "\\udfff\\ud800", "\u202e", "\uD83D\uDE00",
        "\\n\\r\\t", "\\\"", "\u00e9\u0301", "\uFEFF", "%s%n", "../../etc/passwd", "'; drop table x; --", "\u0000"};
    private static final String[] HUGE_NUMBERS = {"1e999999", "-1e999999", "1e-999999", "123456789012345678901234567890",
        "-0", "0.0000000000000000000000001", "9".repeat(900), "1".repeat(1200), "9223372036854775808", "-9223372036854775809",
        "2147483648", "NaN", "Infinity", "01", "1.", ".5"};
    private static final String[] CONTENT_TYPES = {"application/json", "application/json", "application/json",
        "application/x-ndjson", "application/json; charset=utf-8", null};

    @TempDir
    Path data;

    @Test
    void thousandsOfRandomAndMutatedBodiesGetNo5xxOnlyJsonErrorsAndTheServerStillDecides() throws Exception {
        Random random = new Random(SEED);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger decided = new AtomicInteger();
        java.util.Map<Integer, AtomicInteger> statuses = new java.util.concurrent.ConcurrentSkipListMap<>();
        try (Server server = Server.start(TestBundles.seedServer().withData(data).withAdminToken(BodyEndpoints.TOKEN))) {
            BodyEndpoints.prepare(server.port());
            Semaphore slots = new Semaphore(IN_FLIGHT);
            List<CompletableFuture<?>> all = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                Endpoint e = BodyEndpoints.ALL.get(random.nextInt(BodyEndpoints.ALL.size()));
                byte[] body = body(random, e);
                String type = CONTENT_TYPES[random.nextInt(CONTENT_TYPES.length)];
                String query = random.nextInt(4) == 0 ? "?explain=true" : "";
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + e.path() + query))
                        .timeout(Duration.ofSeconds(30)).method(e.method(), HttpRequest.BodyPublishers.ofByteArray(body));
                if (type != null) {
                    b.header("content-type", type);
                }
                if (e.admin()) {
                    b.header("authorization", "Bearer " + BodyEndpoints.TOKEN);
                }
                slots.acquire();
                all.add(BodyEndpoints.CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                        .whenComplete((r, err) -> {
                            slots.release();
                            String problem = err != null ? "no answer: " + err : check(r);
                            if (r != null) {
                                statuses.computeIfAbsent(r.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                            }
                            if (problem != null) {
                                failures.add(e + " " + sample(body) + " -> " + problem);
                            } else if (r.statusCode() < 300) {
                                decided.incrementAndGet();
                            }
                        }));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(x -> null).join();
            System.out.println("fuzz seed " + SEED + ": statuses " + statuses);

            assertTrue(failures.isEmpty(), failures.size() + " of " + REQUESTS + " requests (seed " + SEED + ") failed, e.g.:\n"
                    + String.join("\n", failures.subList(0, Math.min(10, failures.size()))));
            HttpResponse<String> good = BodyEndpoints.send(server.port(), BodyEndpoints.ALL.get(0), BodyEndpoints.BROKER);
            assertEquals(200, good.statusCode(), good.body());
            assertEquals("trade messages go to VP Trading", Json.parse(good.body()).get("rule").asText());
            assertTrue(decided.get() > 0, "some mutations stay valid and are decided");
        }
        // The server is closed: every decision it made is on disk, and every line reads back.
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        List<String> problems = archive.files().stream().flatMap(f -> f.problems().stream()).toList();
        assertEquals(List.of(), problems);
        assertTrue(archive.records() > 0, "the decisions are logged");
    }

    /** Null when the response is acceptable; otherwise what is wrong with it. */
    private static String check(HttpResponse<String> r) {
        if (r.statusCode() >= 500) {
            return r.statusCode() + " " + r.body();
        }
        if (r.statusCode() >= 400) {
            try {
                BodyEndpoints.errorBody(r.body());
            } catch (AssertionError e) {
                return r.statusCode() + " with a body that is not our error JSON: " + r.body();
            }
        }
        return null;
    }

    private static String sample(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        return s.length() > 300 ? s.substring(0, 300) + "...(" + body.length + " bytes)" : s;
    }

    // ---- generating bodies ---------------------------------------------------------------------

    private static byte[] body(Random random, Endpoint e) throws Exception {
        return switch (random.nextInt(10)) {
            case 0 -> randomBytes(random);
            case 1 -> Json.write(randomValue(random, 0)).getBytes(StandardCharsets.UTF_8);
            case 2, 3 -> textMutation(random, e.validBody()).getBytes(StandardCharsets.UTF_8);
            default -> treeMutation(random, e.validBody(), 1 + random.nextInt(3)).getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] randomBytes(Random random) {
        byte[] b = new byte[random.nextInt(200)];
        random.nextBytes(b);
        return b;
    }

    /** Mutations of the tree: a node's type flipped, a field deleted or added, deep nesting. */
    private static String treeMutation(Random random, String valid, int times) throws Exception {
        JsonNode root = Json.parse(valid);
        for (int t = 0; t < times; t++) {
            List<ContainerNode<?>> containers = new ArrayList<>();
            collect(root, containers);
            ContainerNode<?> c = containers.get(random.nextInt(containers.size()));
            if (c instanceof ObjectNode o) {
                List<String> names = new ArrayList<>();
                o.fieldNames().forEachRemaining(names::add);
                int op = random.nextInt(4);
                if (op == 0 && !names.isEmpty()) {
                    o.remove(names.get(random.nextInt(names.size())));
                } else if (op == 1 || names.isEmpty()) {
                    o.set(random.nextBoolean() && !names.isEmpty() ? names.get(0) + "_x" : "f" + random.nextInt(5),
                            randomValue(random, 0));
                } else {
                    o.set(names.get(random.nextInt(names.size())), randomValue(random, 0));
                }
            } else if (c instanceof ArrayNode a) {
                if (a.isEmpty() || random.nextBoolean()) {
                    a.add(randomValue(random, 0));
                } else {
                    a.set(random.nextInt(a.size()), randomValue(random, 0));
                }
            }
        }
        String text = Json.write(root);
        return random.nextInt(4) == 0 ? textMutation(random, text) : text;
    }

    private static void collect(JsonNode n, List<ContainerNode<?>> out) {
        if (n instanceof ContainerNode<?> c) {
            out.add(c);
            n.forEach(child -> collect(child, out));
        }
    }

    /** Mutations of the text: truncation, injected characters, duplicated keys, huge numbers, nesting. */
    private static String textMutation(Random random, String valid) {
        int at = random.nextInt(valid.length() + 1);
        return switch (random.nextInt(7)) {
            case 0 -> valid.substring(0, at);
            case 1 -> valid.substring(0, at) + NASTY_TEXT[random.nextInt(NASTY_TEXT.length)] + valid.substring(at);
            case 2 -> valid.replaceFirst("\"([a-z_]+)\": ", "\"$1\": 1, \"$1\": ");
            case 3 -> valid.replaceFirst("\"[^\"]*\"(?=[,}])", HUGE_NUMBERS[random.nextInt(HUGE_NUMBERS.length)]);
            case 4 -> valid.replaceFirst("\"([^\"]*)\"(?=[,}])", "\"$1" + NASTY_TEXT[random.nextInt(NASTY_TEXT.length)] + "\"");
            case 5 -> {
                int depth = 20 + random.nextInt(20);
                yield valid.replaceFirst("\"[^\"]*\"(?=[,}])", "[".repeat(depth) + "1" + "]".repeat(depth));
            }
            default -> {
                char[] chars = valid.toCharArray();
                chars[Math.min(at, chars.length - 1)] = (char) random.nextInt(0x80);
                yield new String(chars);
            }
        };
    }

    private static JsonNode randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 5 : 7);
        return switch (kind) {
            case 0 -> Json.MAPPER.getNodeFactory().nullNode();
            case 1 -> Json.MAPPER.getNodeFactory().booleanNode(random.nextBoolean());
            case 2 -> Json.MAPPER.getNodeFactory().numberNode(random.nextInt(5) == 0 ? random.nextLong() : random.nextInt(10) - 3);
            case 3 -> Json.MAPPER.getNodeFactory().numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
            case 4 -> Json.MAPPER.getNodeFactory().textNode(randomText(random));
            case 5 -> {
                ArrayNode a = Json.array();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.add(randomValue(random, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = Json.object();
                for (int i = random.nextInt(4); i > 0; i--) {
                    o.set(randomText(random), randomValue(random, depth + 1));
                }
                yield o;
            }
        };
    }

    private static final String[] WORDS = {"", "a", "teacher", "review", "idle", "telegram", "trade.executed", "critical",
        "exam", "user_message", "custom:x", "foresight", "group", "event", "escalation", "[QUESTION]", "/approve", "fsm"};

    private static String randomText(Random random) {
        if (random.nextBoolean()) {
            return WORDS[random.nextInt(WORDS.length)];
        }
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            sb.appendCodePoint(random.nextInt(3) == 0 ? random.nextInt(0x20) : 0x20 + random.nextInt(0x2FFF));
        }
        return sb.toString();
    }
}
