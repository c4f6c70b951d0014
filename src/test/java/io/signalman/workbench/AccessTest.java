package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.vertx.core.net.SocketAddress;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading without a token is for loopback clients only; anyone else needs a token (--workbench-token, a user's, the admin's). */
class AccessTest {

    private static final String ADMIN = "access-test-admin-token";
    private static final String READ = "access-test-read-token";

    @Test
    void loopbackClientsAreLoopback() {
        assertTrue(Access.loopback(SocketAddress.inetSocketAddress(40000, "127.0.0.1")));
        assertTrue(Access.loopback(SocketAddress.inetSocketAddress(40000, "::1")));
    }

    @Test
    void otherClientsAreNot() {
        assertFalse(Access.loopback(SocketAddress.inetSocketAddress(40000, "10.0.0.7")));
        assertFalse(Access.loopback(SocketAddress.inetSocketAddress(40000, "192.168.1.20")));
        assertFalse(Access.loopback(null));
    }

    /**
     * A real server bound to one of this machine's own non-loopback addresses, reached over a real
     * connection to that address: the server sees the client at that address, not at loopback, as
     * it would see a colleague's browser, so reading needs a token, and a forwarding header
     * claiming loopback changes nothing.
     */
    @Test
    void offLoopbackReadingNeedsTheWorkbenchTokenOrTheAdminToken(@TempDir Path dir) throws Exception {
        Optional<InetAddress> address = nonLoopbackAddress();
        Assumptions.assumeTrue(address.isPresent(), "this machine has no non-loopback address to serve on");
        String host = address.get().getHostAddress();
        Server server = Server.start(TestBundles.seedServer().withHost(host).withData(dir.resolve("data")).withAdminToken(ADMIN),
                new WorkbenchOptions(READ, null));
        try {
            String api = "http://" + (address.get() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + server.port()
                    + "/workbench/api/";
            HttpClient http = HttpClient.newHttpClient();

            HttpResponse<String> anonymous = http.send(get(api + "overview").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, anonymous.statusCode(), anonymous.body());
            assertTrue(anonymous.body().contains("--workbench-token"), anonymous.body());
            // A token that is sent is checked: a wrong one is refused (403, whatever was wrong with it)
            assertEquals(401, status(http, get(api + "rules").header("x-forwarded-for", "127.0.0.1")
                    .header("forwarded", "for=127.0.0.1")), "a header claiming loopback is not loopback");
            assertEquals(403, status(http, get(api + "overview").header("authorization", "Bearer not-the-token")));

            assertEquals(200, status(http, get(api + "overview").header("authorization", "Bearer " + READ)));
            assertEquals(200, status(http, get(api + "scenarios").header("authorization", "Bearer " + READ)));
            assertEquals(200, status(http, get(api + "overview").header("authorization", "Bearer " + ADMIN)));

            // The read token only reads.
            assertEquals(403, status(http, HttpRequest.newBuilder(URI.create(api + "drafts")).POST(HttpRequest.BodyPublishers.noBody())
                    .header("authorization", "Bearer " + READ)));
        } finally {
            server.close();
        }
    }

    private static HttpRequest.Builder get(String uri) {
        return HttpRequest.newBuilder(URI.create(uri)).GET();
    }

    private static int status(HttpClient http, HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * An address of an interface of this machine that is up and not loopback, IPv4 first (a
     * link-local one would need its scope in the URI, so none is taken).
     */
    private static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
        return NetworkInterface.networkInterfaces().filter(AccessTest::usable).flatMap(NetworkInterface::inetAddresses)
                .filter(a -> !a.isLoopbackAddress() && !a.isAnyLocalAddress() && !a.isLinkLocalAddress() && !a.isMulticastAddress())
                .min(Comparator.comparing(a -> !(a instanceof Inet4Address)));
    }

    private static boolean usable(NetworkInterface i) {
        try {
            return i.isUp() && !i.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
