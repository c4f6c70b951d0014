package io.signalman.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests to a server in a JVM of its own ({@link ServeProcess}): one HTTP/1.1 client that gives up
 * connecting after 5 s (a killed server must fail a call, not hang it), and a send whose transport
 * failures are runtime exceptions, so load threads can tell a server that is gone from a bad answer;
 * and the head and body of an answer read off a raw socket, for requests the client would not send.
 */
final class ChildHttp {

    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private ChildHttp() {
    }

    /**
     * A JSON request (30 s to answer) to {@code path} on 127.0.0.1:{@code port}, with no body when
     * {@code body} is null, and an {@code idempotency-key} header when {@code key} is not null.
     */
    static HttpRequest.Builder request(int port, String method, String path, String body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("idempotency-key", key);
        }
        return b;
    }

    /** The status line and headers of an answer, read from {@code in} up to the blank line; fails if the connection closes first. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** The body of the answer whose head is {@code head}: its Content-Length bytes from {@code in} (none without one). */
    static String readBody(InputStream in, String head) throws IOException {
        Matcher m = Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        return new String(in.readNBytes(m.find() ? Integer.parseInt(m.group(1)) : 0), StandardCharsets.UTF_8);
    }

    static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        return send(CLIENT, request, body);
    }

    static <T> HttpResponse<T> send(HttpClient client, HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        try {
            return client.send(request.build(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
