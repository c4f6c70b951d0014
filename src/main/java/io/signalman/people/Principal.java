package io.signalman.people;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Who made a request, as the server knows them after checking their token: a name (what the audit
 * log and the activation record say), the roles they hold, and how they proved it.
 *
 * @param how {@code token} (a user of the data directory), {@code admin-token} (the bootstrap
 *            user), {@code oidc} (a JWT from the configured provider) or {@code read-token} (the
 *            workbench's shared read token, a viewer) or {@code cli} ({@code signalman users} on a
 *            data directory no server holds) or {@code start} (what a start records of itself in
 *            the audit log: keying begun, a loss accepted)
 */
public record Principal(String name, Set<Role> roles, String how) {

    public Principal {
        roles = Collections.unmodifiableSet(roles.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(roles));
    }

    /** The single admin token's user: every role (approving its own drafts is refused like anyone's). */
    public static Principal bootstrap(String name) {
        return new Principal(name, EnumSet.allOf(Role.class), "admin-token");
    }

    /** Whether this principal may do what {@code role} may: everyone reads, admin does everything. */
    public boolean has(Role role) {
        return role == Role.VIEWER || roles.contains(role) || roles.contains(Role.ADMIN);
    }

    /** The roles as their names, for an answer. */
    public List<String> roleNames() {
        return roles.stream().map(Role::wire).toList();
    }

    /** Whether this is the same person as {@code other} by name: equal confusable skeletons ({@link Names}). */
    public boolean sameAs(String other) {
        return Names.sameIdentity(name, other);
    }
}
