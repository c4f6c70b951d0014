package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connection limits against {@code signalman serve} on loopback: an idle connection is closed, a client
 * trickling its request is cut off, and past {@code --max-connections} new connections are closed
 * while those already open are still answered; each close is counted in {@code /metrics}. Issue
 * 26.6: with a client holding 10,000 sockets, the operator's endpoints answer on the admin listener.
 */
class ConnectionLimitsProcessTest {

    private static final String HEALTH = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    @TempDir
    static Path data;
    /** One server with 1 s timeouts, one with room for three connections; started together (a start takes seconds). */
    private static ServeProcess quick;
    private static ServeProcess capped;
    /** Default connection cap (10,000 here), with the operator's endpoints on an admin listener. */
    private static ServeProcess operated;

    @BeforeAll
    static void start() {
        quick = ServeProcess.launch(data.resolve("quick"), Map.of("SIGNALMAN_IDLE_TIMEOUT", "1"), "--request-timeout", "1");
        capped = ServeProcess.launch(data.resolve("capped"), Map.of(), "--max-connections", "3");
        operated = ServeProcess.launch(data.resolve("operated"), Map.of(), "--admin-port", "0");
        quick.awaitServing(Duration.ofSeconds(90));
        capped.awaitServing(Duration.ofSeconds(90));
        operated.awaitServing(Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() {
        for (ServeProcess p : new ServeProcess[] {quick, capped, operated}) {
            if (p != null) {
                p.close();
            }
        }
    }

    @Test
    void idleConnectionsAndTricklingClientsAreClosedAndCounted() throws Exception {
        ServeProcess server = quick;
        // Given a connection that sends nothing: it is closed
        try (Socket idle = socket(server.port())) {
            assertEquals(-1, idle.getInputStream().read(), "the server closed the idle connection");
        }
        // Given a client trickling a request's headers, a byte at a time: it is closed before it finishes them
        try (Socket trickle = socket(server.port())) {
            assertTrue(trickleUntilClosed(trickle, ("POST /v1/broker/route HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "X-Slow: " + "z".repeat(200) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII)), "headers trickled to the end");
        }
        // Given a client whose headers arrived and whose body trickles: 408 request_timeout, then closed
        try (Socket trickle = socket(server.port())) {
            OutputStream out = trickle.getOutputStream();
            out.write(("POST /v1/broker/route HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 300\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = trickle.getInputStream();
            for (int i = 0; i < 300 && in.available() == 0; i++) {
                out.write(' ');
                out.flush();
                Thread.sleep(50);
            }
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("\"error\":\"request_timeout\""), answer);
        }
        // Then /metrics counts both kinds of close
        String metrics = get(server.port(), "/metrics");
        assertTrue(count(metrics, "idle") >= 2, metrics);
        assertTrue(count(metrics, "request_timeout") >= 1, metrics);
    }

    @Test
    void pastTheConnectionCapNewConnectionsAreClosedWhileOpenOnesAreStillAnswered() throws Exception {
        ServeProcess server = capped;
        List<Socket> held = new ArrayList<>();
        try {
            // Given three connections open, each answered once (so the server has accepted them)
            for (int i = 0; i < 3; i++) {
                Socket s = socket(server.port());
                held.add(s);
                assertTrue(exchange(s, HEALTH).startsWith("HTTP/1.1 200"));
            }
            // When a fourth connects, the server closes it without an answer
            try (Socket fourth = socket(server.port())) {
                assertEquals(-1, readOrClosed(fourth), "the fourth connection was closed");
            }
            // Then the open ones are still answered, /health included
            assertTrue(exchange(held.get(0), HEALTH).startsWith("HTTP/1.1 200"));
            String metrics = exchange(held.get(1), "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            assertTrue(count(metrics, "over_limit") >= 1, metrics);
            // ... and once one closes, a new connection is served again
            held.remove(2).close();
            Await.until(Duration.ofSeconds(30), "a new connection to be served", () -> {
                try (Socket s = socket(server.port())) {
                    return exchange(s, HEALTH).startsWith("HTTP/1.1 200");
                } catch (IOException e) {
                    return false;
                }
            });
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void theOperatorsEndpointsKeepAnsweringWhileAClientHoldsTenThousandSockets() throws Exception {
        ServeProcess server = operated;
        int admin = server.adminPort();
        List<java.nio.channels.SocketChannel> held = new ArrayList<>();
        try {
            // Given a client holding 10,000 connections to the public port (its whole default cap here)
            for (int i = 0; i < 10_000; i++) {
                held.add(java.nio.channels.SocketChannel.open(new java.net.InetSocketAddress("127.0.0.1", server.port())));
            }
            Await.until(Duration.ofSeconds(60), "the public listener to be full", () -> {
                try (Socket s = socket(server.port())) {
                    return readOrClosed(s) == -1;
                } catch (IOException e) {
                    return true;
                }
            });
            // Then /health, /ready and /metrics still answer, on the admin listener, which has no cap
            assertTrue(get(admin, "/health").startsWith("HTTP/1.1 200"), "health");
            assertTrue(get(admin, "/ready").startsWith("HTTP/1.1 200"), "ready");
            String metrics = get(admin, "/metrics");
            assertTrue(metrics.startsWith("HTTP/1.1 200") && count(metrics, "over_limit") >= 1, metrics);
            assertTrue(metrics.contains("signalman_connections_open 10000.0"), "10,000 held");
        } finally {
            for (java.nio.channels.SocketChannel c : held) {
                c.close();
            }
        }
    }

    private static Socket socket(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(30_000);
        return s;
    }

    /** Sends {@code bytes} one every 50 ms; true when the server closed the connection before the last. */
    private static boolean trickleUntilClosed(Socket s, byte[] bytes) throws Exception {
        OutputStream out = s.getOutputStream();
        for (byte b : bytes) {
            try {
                out.write(b);
                out.flush();
            } catch (SocketException e) {
                return true;
            }
            if (s.getInputStream().available() > 0 || closedByPeer(s)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static boolean closedByPeer(Socket s) throws IOException {
        s.setSoTimeout(1);
        try {
            return s.getInputStream().read() == -1;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        } finally {
            s.setSoTimeout(30_000);
        }
    }

    private static int readOrClosed(Socket s) throws IOException {
        try {
            return s.getInputStream().read();
        } catch (SocketException e) {
            return -1; // reset by the server
        }
    }

    /** One request on an open connection; the status line, headers and body of its answer. */
    private static String exchange(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        String head = ChildHttp.readHead(s.getInputStream());
        return head + ChildHttp.readBody(s.getInputStream(), head);
    }

    private static String get(int port, String path) throws IOException {
        try (Socket s = socket(port)) {
            return exchange(s, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
    }

    private static double count(String metrics, String reason) {
        Matcher m = Pattern.compile("(?m)^signalman_connections_closed_total\\{reason=\"" + reason + "\"\\} (\\S+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
