package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The compose healthcheck (ImageTest runs it inside the image against a real server). */
class ReadyProbeTest {

    @Test
    void ready_is_0_unready_or_silent_is_1_and_a_bad_port_is_2() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        int[] status = {200};
        http.createContext("/ready", x -> {
            x.sendResponseHeaders(status[0], -1);
            x.close();
        });
        http.start();
        try {
            String port = Integer.toString(http.getAddress().getPort());
            assertEquals(0, ReadyProbe.probe(port));
            status[0] = 503;
            assertEquals(1, ReadyProbe.probe(port));
            status[0] = 302;
            assertEquals(1, ReadyProbe.probe(port), "a redirect is not followed, nor ready");
        } finally {
            http.stop(0);
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertEquals(1, ReadyProbe.probe(Integer.toString(closed)));
        for (String bad : new String[] {"0", "65536", "-1", "8080x", "http://example.com:80"}) {
            assertEquals(2, ReadyProbe.probe(bad), bad);
        }
    }
}
