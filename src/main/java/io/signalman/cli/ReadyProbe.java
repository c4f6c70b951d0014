package io.signalman.cli;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;

/**
 * The container image's health check, for runtimes that probe by running a command (compose):
 * {@code java -cp /app/classes io.signalman.cli.ReadyProbe}. GETs {@code /ready} of the server in the
 * same container, on 127.0.0.1 and {@code SIGNALMAN_PORT} (8080 when unset), and exits 0 on 200, 1
 * otherwise. It loads nothing but the JDK, so it starts in a fraction of a second; it takes no
 * address, so it can ask nothing but the local server.
 */
public final class ReadyProbe {

    private ReadyProbe() {
    }

    public static void main(String[] argv) {
        System.exit(probe(System.getenv("SIGNALMAN_PORT")));
    }

    /** 0 when the local server on {@code port} (null: 8080) answers {@code /ready} with 200; else 1 (2: a bad port). */
    static int probe(String port) {
        int p;
        try {
            p = port == null || port.isBlank() ? 8080 : Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 || p > 65535) {
            System.err.println("ready probe: SIGNALMAN_PORT must be 1 to 65535, not \"" + port + "\"");
            return 2;
        }
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + p + "/ready").toURL().openConnection();
            c.setConnectTimeout(2000);
            c.setReadTimeout(3000);
            c.setInstanceFollowRedirects(false);
            int status = c.getResponseCode();
            c.disconnect();
            System.out.println("ready probe: /ready answered " + status);
            return status == 200 ? 0 : 1;
        } catch (IOException e) {
            System.out.println("ready probe: /ready did not answer: " + e.getMessage());
            return 1;
        }
    }
}
