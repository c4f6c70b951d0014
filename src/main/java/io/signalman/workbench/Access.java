package io.signalman.workbench;

import io.signalman.http.Api;
import io.signalman.people.Role;
import io.vertx.core.Handler;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Who may do what on the workbench. Reading is open to loopback clients without a token, and
 * otherwise needs a token of anyone the server knows (every role reads what a viewer reads: a
 * user's token, the admin token, a JWT of the identity provider, or the shared read token
 * {@code --workbench-token}); a token that is sent is always checked, on loopback too. Each write
 * needs the role it names, through the server's own gate ({@link Api#gate}). Tokens travel only in
 * the {@code Authorization} header, never in a cookie: a page on another site can make a browser
 * send cookies, not headers, so no cross-site request can act.
 */
final class Access {

    /**
     * NOTE: scripts only from this origin, no inline script, no eval, nothing framed or posted
     * elsewhere. Styles allow inline attributes because Mermaid's SVG and CodeMirror's layout set
     * them; a style cannot run code, and everything analyst-written is inserted as text anyway.
     */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    private final Api api;
    private final Handler<RoutingContext> viewer;

    Access(Api api) {
        this.api = api;
        this.viewer = api.gate(Role.VIEWER);
    }

    /** Every workbench response: the page's security headers. */
    static void headers(RoutingContext ctx) {
        ctx.response().putHeader("content-security-policy", CSP)
                .putHeader("x-content-type-options", "nosniff")
                .putHeader("referrer-policy", "no-referrer")
                .putHeader("x-frame-options", "DENY");
        ctx.next();
    }

    /** Route handler: goes on when the client may read (loopback without a token, or any valid token), else 401 or 403. */
    void read(RoutingContext ctx) {
        if (Api.bearer(ctx) == null) {
            if (loopback(ctx.request().remoteAddress())) {
                ctx.next();
                return;
            }
            ctx.response().putHeader("www-authenticate", "Bearer");
            Replies.error(ctx, 401, "unauthorized", "reading the workbench from off this machine needs Authorization: Bearer "
                    + "<token>: a user's token, the admin token, or the workbench token (--workbench-token)");
            return;
        }
        viewer.handle(ctx);
    }

    /** A route handler that goes on only for someone with {@code role} (401 without a token, 403 without the role). */
    Handler<RoutingContext> write(Role role) {
        return api.gate(role);
    }

    static boolean loopback(SocketAddress a) {
        if (a == null || a.hostAddress() == null) {
            return false;
        }
        try {
            return InetAddress.getByName(a.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
