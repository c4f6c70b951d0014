package io.signalman.workbench;

import io.signalman.http.Api;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may do what on the workbench. Reading is open to loopback clients and otherwise needs the
 * read token ({@code --workbench-token}) or the admin token; every write needs the admin token,
 * through the server's own admin check. Tokens travel only in the {@code Authorization} header,
 * never in a cookie: a page on another site can make a browser send cookies, not headers, so no
 * cross-site request can act.
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
    private final String readToken;
    private final String adminToken;

    Access(Api api, String readToken, String adminToken) {
        this.api = api;
        this.readToken = readToken;
        this.adminToken = adminToken;
    }

    /** Every workbench response: the page's security headers. */
    static void headers(RoutingContext ctx) {
        ctx.response().putHeader("content-security-policy", CSP)
                .putHeader("x-content-type-options", "nosniff")
                .putHeader("referrer-policy", "no-referrer")
                .putHeader("x-frame-options", "DENY");
        ctx.next();
    }

    /** Route handler: goes on when the client may read, else 401. */
    void read(RoutingContext ctx) {
        if (loopback(ctx.request().remoteAddress()) || matches(ctx, readToken) || matches(ctx, adminToken)) {
            ctx.next();
            return;
        }
        ctx.response().putHeader("www-authenticate", "Bearer");
        Replies.error(ctx, 401, "unauthorized", "reading the workbench from off this machine needs Authorization: Bearer "
                + "<workbench token> (--workbench-token) or the admin token");
    }

    /** Route handler: goes on only with the admin token (401 without, 403 wrong), as /v1/rules/reload. */
    void write(RoutingContext ctx) {
        if (api.admin(ctx)) {
            ctx.next();
        }
    }

    private static boolean matches(RoutingContext ctx, String token) {
        String header = ctx.request().getHeader("authorization");
        if (token == null || header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(header.substring(7).trim().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
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
