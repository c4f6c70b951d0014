package io.signalman.people;

import io.signalman.json.WireName;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a user may do. Every role reads what a viewer reads; {@link #ADMIN} holds every role. The
 * roles are not a ladder: an approver is not an author, and an operator (who activates what is
 * approved) need not be able to write a draft, so that no one role both writes and ships a change.
 */
public enum Role implements WireName {
    /** Reads rules, decisions, explanations, drafts, activations, the audit's history, trials. */
    VIEWER,
    /** Writes drafts (edit, rebase, revert into a draft), checks them, runs their impact, tries messages. */
    AUTHOR,
    /** Approves or rejects a draft someone else wrote. */
    APPROVER,
    /** Activates what is approved, rolls back in an emergency, reloads, restores state, runs trials. */
    OPERATOR,
    /** Manages users, and holds every other role. */
    ADMIN;

    /** A role by its name (viewer, author, ...); IllegalArgumentException naming the roles otherwise. */
    public static Role parse(String s) {
        for (Role r : values()) {
            if (r.wire().equals(s)) {
                return r;
            }
        }
        throw new IllegalArgumentException("\"" + (s == null ? "" : s.length() > 40 ? s.substring(0, 40) + "..." : s)
                + "\" is not a role; the roles are " + Arrays.stream(values()).map(Role::wire).collect(Collectors.joining(", ")));
    }

    /** Roles from a comma-separated list ({@code author,approver}); at least one. */
    public static Set<Role> parseList(String list) {
        Set<Role> roles = new TreeSet<>();
        for (String s : (list == null ? "" : list).split(",")) {
            if (!s.isBlank()) {
                roles.add(parse(s.strip()));
            }
        }
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("name at least one role: " + Arrays.stream(values()).map(Role::wire)
                    .collect(Collectors.joining(", ")));
        }
        return roles;
    }
}
