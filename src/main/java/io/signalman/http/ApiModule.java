package io.signalman.http;

import io.vertx.ext.web.Router;

/**
 * One pack's part of the API: its HTTP routes and its event-bus addresses. Adding a pack to the
 * API means one of these and one line in {@link ApiModules}.
 */
public interface ApiModule {

    /** Adds the pack's routes; handlers only route, work goes through {@link Api#blocking}. */
    void routes(Router router, Api api);

    /**
     * Adds the pack's admin routes: on the public router, or on the admin listener's
     * when one is configured. Each handler starts with {@link Api#gate} and the role it needs.
     */
    default void adminRoutes(Router router, Api api) {
    }

    /** Registers the pack's event-bus consumers. */
    default void addresses(Api api) {
    }
}
