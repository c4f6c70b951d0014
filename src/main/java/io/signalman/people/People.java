package io.signalman.people;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.nio.file.Path;
import java.util.Set;

/**
 * The people of one data directory: its users, its audit log, the approvals the log holds, and
 * who a token belongs to. Everything people do that the audit log keeps goes through
 * {@link #record}, so that the approvals read from the log are the approvals there are.
 * Opened once per data directory owner (a server, or a CLI command on a directory no server holds).
 */
public final class People implements AutoCloseable {

    private final PeopleConfig config;
    private final UserStore users;
    private final AuditLog audit;
    private final Approvals approvals = new Approvals();
    private final Authenticator authenticator;
    private final OidcTokens oidc;

    private People(PeopleConfig config, UserStore users, AuditLog audit, Authenticator authenticator, OidcTokens oidc) {
        this.config = config;
        this.users = users;
        this.audit = audit;
        this.authenticator = authenticator;
        this.oidc = oidc;
        // Every entry the log holds verified when it was opened; with a key, only the keyed ones count as acts.
        // From here on every entry is told as it is appended, on this node or (in a cluster) any other.
        audit.onEntry(e -> {
            if (audit.counts(e)) {
                approvals.accept(e);
            }
        });
        audit.entries().stream().filter(audit::counts).forEach(approvals::accept);
    }

    /**
     * Opens the users and audit log of {@code data} (already opened as a data directory, so its
     * files are judged). {@code adminToken} is the bootstrap user's token (or null), named
     * {@code adminName}; {@code readToken} the workbench's shared read token (or null);
     * {@code oidc} the provider's token verifier (or null). The audit log is proven first, with
     * {@code config}'s key: a log that does not verify is refused unless {@code acceptLoss}
     * ({@link AuditLog#open(Path, Writing, long, AuditKey, boolean)}). Blocking; at start.
     *
     * @throws io.signalman.datadir.DataDirRefused when the audit log does not verify
     */
    public static People open(Path data, Writing writing, PeopleConfig config, String adminToken, String adminName,
                              String readToken, OidcTokens oidc, boolean acceptLoss) {
        return open(new io.signalman.control.LocalControl(data, writing), data, writing, config, adminToken, adminName, readToken,
                oidc, acceptLoss);
    }

    /**
     * The same, through {@code control}: a single node's data directory, or the cluster's control
     * plane, whose users and audit log every member shares (a user added on one node works on all).
     */
    public static People open(io.signalman.control.ControlStore control, Path data, Writing writing, PeopleConfig config,
                              String adminToken, String adminName, String readToken, OidcTokens oidc, boolean acceptLoss) {
        UserStore users = UserStore.open(control.journal(io.signalman.control.ControlStore.USERS), config.hashCost(),
                Set.of(adminName));
        AuditLog audit;
        try {
            audit = control.shared() ? AuditLog.openShared(data, control.journal(io.signalman.control.ControlStore.AUDIT),
                    config.auditKey(), control.node())
                    : AuditLog.open(data, writing, config.auditRollBytes(), config.auditKey(), acceptLoss);
        } catch (RuntimeException e) {
            users.close();
            throw e;
        }
        Authenticator auth = new Authenticator(adminToken, adminName, readToken, users, oidc, config.failuresPerMinute(),
                System::nanoTime);
        return new People(config, users, audit, auth, oidc);
    }

    public PeopleConfig config() {
        return config;
    }

    public UserStore users() {
        return users;
    }

    public AuditLog audit() {
        return audit;
    }

    public Approvals approvals() {
        return approvals;
    }

    public Authenticator authenticator() {
        return authenticator;
    }

    /** Approvals a draft needs before it is activated. */
    public int required() {
        return config.approvals();
    }

    /** Records what {@code who} did in the audit log (forced before it returns); returns the entry as written. */
    public JsonNode record(Principal who, String action, ObjectNode fields) {
        return audit.append(who, action, fields);
    }

    /** Adds a user, recorded in the audit log. Blocking (a slow hash). */
    public UserStore.Issued addUser(String name, Set<Role> roles, Principal by) {
        UserStore.Issued issued = users.add(name, roles, by.name());
        ObjectNode f = Json.object().put("subject", name);
        roles.forEach(r -> f.withArray("roles").add(r.wire()));
        record(by, "user_added", f);
        return issued;
    }

    /** A new token for {@code name}, recorded. */
    public UserStore.Issued rotate(String name, Principal by) {
        UserStore.Issued issued = users.rotate(name, by.name());
        record(by, "token_rotated", Json.object().put("subject", name));
        return issued;
    }

    /** Removes {@code name}, recorded. */
    public UserStore.User removeUser(String name, Principal by) {
        UserStore.User u = users.remove(name, by.name());
        record(by, "user_removed", Json.object().put("subject", name));
        return u;
    }

    @Override
    public void close() {
        users.close();
        audit.close();
        if (oidc != null) {
            oidc.close();
        }
    }
}
