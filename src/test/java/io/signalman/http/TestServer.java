package io.signalman.http;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import net.jqwik.api.lifecycle.AroundContainerHook;
import net.jqwik.api.lifecycle.ContainerLifecycleContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's server: started once before the class's first test in a fresh temporary folder,
 * closed after its last test and the folder deleted, so a class never pays for more than one
 * start (compiling the bundle is the slow part). Tests share it, and so share its state: a test
 * that needs an instance or a conversation of its own uses an id no other test uses.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TestServer server = TestServer.seed();
 * }</pre>
 *
 * <p>A jqwik container has it the same way through {@link ForProperties}: the field is static, and
 * the class carries {@code @AddLifecycleHook(TestServer.ForProperties.class)}.
 */
public final class TestServer implements BeforeAllCallback, AfterAllCallback {

    /** How the class's server is started, given its temporary folder. */
    @FunctionalInterface
    public interface Starter {
        Server start(Path dir) throws Exception;
    }

    private final Starter starter;
    private Path dir;
    private Server server;

    private TestServer(Starter starter) {
        this.starter = starter;
    }

    /** The seed bundle with its data (the decision log, the state) in the temporary folder. */
    public static TestServer seed() {
        return starting(dir -> Server.start(TestBundles.seedServer().withData(dir).withBlockedWarnMs(200)));
    }

    /** A server that {@code starter} starts in the temporary folder. */
    public static TestServer starting(Starter starter) {
        return new TestServer(starter);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        stop();
    }

    private void start() throws Exception {
        dir = Files.createTempDirectory("signalman-test-server");
        server = starter.start(dir);
    }

    private void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Closes the server (closing is idempotent, so a test may have closed it to read what it left on
     * disk) and starts it again the same way on the same folder, its data kept.
     */
    public void restart() throws Exception {
        server.close();
        server = starter.start(dir);
    }

    /**
     * For a jqwik container: each static TestServer field of the class is started before its first
     * property and closed after its last, as JUnit does for a {@code @RegisterExtension} field.
     */
    public static final class ForProperties implements AroundContainerHook {

        @Override
        public void beforeContainer(ContainerLifecycleContext context) {
            each(context, TestServer::start);
        }

        @Override
        public void afterContainer(ContainerLifecycleContext context) {
            each(context, TestServer::stop);
        }

        private interface Step {
            void on(TestServer server) throws Exception;
        }

        private static void each(ContainerLifecycleContext context, Step step) {
            for (Field f : context.optionalContainerClass().orElseThrow().getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == TestServer.class) {
                    try {
                        f.setAccessible(true);
                        step.on((TestServer) f.get(null));
                    } catch (Exception e) {
                        throw new IllegalStateException(context.label() + ": the server in " + f.getName(), e);
                    }
                }
            }
        }
    }

    public Server server() {
        return server;
    }

    /** The temporary folder the server was started in. */
    public Path dir() {
        return dir;
    }

    public int port() {
        return server.port();
    }

    public Vertx vertx() {
        return server.vertx();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    public HttpResponse<String> get(String path) {
        return HttpCalls.send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** A JSON body POSTed to {@code path}. */
    public HttpResponse<String> post(String path, String body) {
        return HttpCalls.send(HttpRequest.newBuilder(uri(path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
