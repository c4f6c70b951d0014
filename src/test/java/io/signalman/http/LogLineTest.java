package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.decisions.LogLine;
import io.signalman.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Structured log lines: {@code key=value}, one per decision (DEBUG, logger
 * {@code io.signalman.decisions}) and one per server fault (ERROR, with the request id the client
 * is given). The server logs through slf4j-simple to standard error, which these tests capture.
 */
class LogLineTest {

    @TempDir
    Path tmp;

    @Test
    void aValueThatWouldSplitTheLineIsQuotedAndEscaped() {
        String line = LogLine.of("decision").kv("pack", "broker").kv("rule", "say \"hi\"\nnow").kv("rule_id", null).toString();

        assertEquals("decision pack=broker rule=\"say \\\"hi\\\" now\" rule_id=-", line);
    }

    @Test
    void everyDecisionLogsOneLineWithItsIdPackEndpointRuleAndRevision() throws Exception {
        try (Server server = Server.start(TestBundles.seedServer().withData(tmp))) {
            // When a message is routed
            Captured<HttpResponse<String>> c = capture(() -> ContractServer.sendAs(server.port(), "POST", "/v1/broker/route",
                    "{\"envelope\": {\"from_agent\": \"foresight\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}", null));
            JsonNode d = Json.parse(c.value().body());

            // Then one line carries the decision's id, its pack, endpoint, deciding rule and revision
            String line = c.lineWith("decision_id=" + d.get("decision_id").asText());
            assertTrue(line.contains(" pack=broker endpoint=/v1/broker/route revision=" + d.get("rules_revision").asText()
                    + " rule=\"trade messages go to VP Trading\" fired=2"), line);
            assertTrue(line.contains("DEBUG io.signalman.decisions"), line);
        }
    }

    @Test
    void aServerFaultIsLoggedWithTheRequestIdTheClientIsGiven() throws Exception {
        // Given a rule that fails on one subtype (a priority override the decision API refuses)
        Path rules = TestBundles.copyOfRules(tmp);
        Files.writeString(rules.resolve("broker/routing.drl"), Files.readString(rules.resolve("broker/routing.drl"))
                + "\nrule \"a poisoned message breaks the rules\"\n    @reason(\"a test of a rule that throws\")\n"
                + "    agenda-group \"fan-out\"\nwhen\n    Message( subtype == \"poison\" )\nthen\n"
                + "    decide.priority(\"urgent\");\nend\n");
        Path fixtures = Files.createDirectories(tmp.resolve("no-fixtures"));
        try (Server server = Server.start(TestBundles.seedServer().withRules(rules).withFixtures(fixtures)
                .withData(tmp.resolve("data")))) {
            // When a message makes it throw
            Captured<HttpResponse<String>> c = capture(() -> ContractServer.sendAs(server.port(), "POST", "/v1/broker/route",
                    "{\"envelope\": {\"from_agent\": \"foresight\"}, \"type\": \"event\", \"subtype\": \"poison\"}", null));

            // Then the client gets a 500 with a request id, and the error line carries the same id
            assertEquals(500, c.value().statusCode(), c.value().body());
            String id = c.value().headers().firstValue("x-request-id").orElseThrow();
            String line = c.lineWith("request_id=" + id);
            assertTrue(line.contains("ERROR") && line.contains("status=500 error=rule_failed"), line);
        }
    }

    /** What a call returned, and what was written to standard error while it ran. */
    record Captured<T>(T value, String err) {
        String lineWith(String text) {
            return err.lines().filter(l -> l.contains(text)).findFirst()
                    .orElseThrow(() -> new AssertionError("no log line with " + text + " in:\n" + err));
        }
    }

    /** slf4j-simple looks System.err up on every line, so a tee placed here sees the server's lines. */
    private static <T> Captured<T> capture(Callable<T> call) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public synchronized void write(int b) {
                original.write(b);
                copy.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                original.write(b, off, len);
                copy.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
        try {
            T value = call.call();
            System.err.flush();
            return new Captured<>(value, copy.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
