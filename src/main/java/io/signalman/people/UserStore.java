package io.signalman.people;

import io.signalman.control.RecordFiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.control.FileJournal;
import io.signalman.control.Journal;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The users of a data directory, {@code <data>/users.jsonl}: a journal of sealed records, one per
 * change ({@code add}, {@code rotate}, {@code remove}), forced to disk before the change is
 * answered, read back in order at open. A user's token is never stored: only its Argon2id hash
 * ({@link TokenHash}) and the id of the credential it belongs to ({@link Tokens}). Changes take
 * effect at once for whoever holds this store: the next request with a removed or rotated token
 * is refused. The CLI edits the store of a directory no server holds (it takes the directory's
 * lock); a running server takes the same changes through its admin endpoints.
 */
public final class UserStore {

    public static final String FILE = "users.jsonl";

    /** A user as stored (the hash stays here: it is never answered). */
    public record User(String name, Set<Role> roles, String credentialId, String hash, String createdAt, String createdBy,
                       String rotatedAt) {

        /** What a list shows of a user: no hash, no credential id. */
        public ObjectNode toJson() {
            ObjectNode n = Json.object().put("name", name);
            roles.forEach(r -> n.withArray("roles").add(r.wire()));
            n.put("created_at", createdAt).put("created_by", createdBy).put("token_rotated_at", rotatedAt);
            return n;
        }

        @Override
        public String toString() {
            return "User[" + name + " " + roles + "]";
        }
    }

    /** A user with the token just made for them: answered once, never kept. */
    public record Issued(User user, String token) {
        @Override
        public String toString() {
            return "Issued[" + user + ", token=(hidden)]";
        }
    }

    private final Journal journal;
    private final HashCost cost;
    /** Names no user may take (or look like): the bootstrap admin's. */
    private final Set<String> reserved;
    private volatile Map<String, User> byName = Map.of();
    private volatile Map<String, User> byCredential = Map.of();
    /** Credential ids that were rotated away or removed: a token of one is "revoked" in the metrics. */
    private final Set<String> retired = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The journal's entries applied so far. */
    private long applied;

    private UserStore(Journal journal, HashCost cost, Set<String> reserved) {
        this.journal = journal;
        this.cost = cost;
        this.reserved = reserved;
    }

    /** Reads {@code <data>/users.jsonl} (none yet: no users): the CLI's store of a directory no server holds. Blocking. */
    public static UserStore open(Path data, Writing writing, HashCost cost, Set<String> reserved) {
        return open(FileJournal.open(data.resolve(FILE), writing), cost, reserved);
    }

    /**
     * The users of {@code journal}: a single node's file, or the cluster's journal, whose changes
     * from any node take effect here as soon as they are appended (revocation included). Blocking.
     */
    public static UserStore open(Journal journal, HashCost cost, Set<String> reserved) {
        UserStore s = new UserStore(journal, cost, reserved);
        s.catchUp();
        journal.onAppend(s::catchUp);
        return s;
    }

    /** Applies every entry appended since the last look, in order (anyone's: this node's or another member's). */
    private synchronized void catchUp() {
        Map<String, User> users = null;
        for (String rec; (rec = journal.get(applied + 1)) != null; applied++) {
            if (users == null) {
                users = new HashMap<>(byName);
            }
            apply(users, RecordFiles.json(rec.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        if (users != null) {
            publish(users);
        }
    }

    private void apply(Map<String, User> users, JsonNode rec) {
        if (rec == null || !rec.isObject()) {
            return;
        }
        String name = rec.path("name").asText();
        User old = users.get(name);
        switch (rec.path("op").asText()) {
            case "add" -> {
                Set<Role> roles = new TreeSet<>();
                rec.path("roles").forEach(r -> {
                    try {
                        roles.add(Role.parse(r.asText()));
                    } catch (IllegalArgumentException e) {
                        // a role of a later version: this one grants nothing for it
                    }
                });
                users.put(name, new User(name, roles, rec.path("credential").asText(), rec.path("hash").asText(),
                        rec.path("at").asText(), rec.path("by").asText(), null));
            }
            case "rotate" -> {
                if (old != null) {
                    retired.add(old.credentialId());
                    users.put(name, new User(name, old.roles(), rec.path("credential").asText(), rec.path("hash").asText(),
                            old.createdAt(), old.createdBy(), rec.path("at").asText()));
                }
            }
            case "remove" -> {
                if (old != null) {
                    retired.add(old.credentialId());
                    users.remove(name);
                }
            }
            default -> {
                // A record of a later version: skipped, as every reader of the data directory does.
            }
        }
    }

    private void publish(Map<String, User> users) {
        Map<String, User> cred = new HashMap<>();
        users.values().forEach(u -> cred.put(u.credentialId(), u));
        byName = Map.copyOf(users);
        byCredential = Map.copyOf(cred);
    }

    /** Every user, by name. */
    public List<User> list() {
        List<User> l = new ArrayList<>(byName.values());
        l.sort(Comparator.comparing(User::name));
        return l;
    }

    public User byName(String name) {
        return byName.get(name);
    }

    /** The user a token's credential id belongs to now, or null (unknown, rotated away, removed). */
    public User byCredential(String credentialId) {
        return byCredential.get(credentialId);
    }

    /** Whether the credential id once was a user's (rotated away or removed). */
    public boolean retired(String credentialId) {
        return retired.contains(credentialId);
    }

    /** The cost new hashes are made at. */
    public HashCost cost() {
        return cost;
    }

    /**
     * Adds a user with a new token. Refused (400) when the name is not a plain name, 409 when it
     * is taken or looks like one taken (or like the bootstrap admin's). Blocking (a slow hash).
     */
    public synchronized Issued add(String name, Set<Role> roles, String by) {
        String problem = Names.problem(name);
        if (problem != null) {
            throw new PeopleRefused(400, "invalid_input", problem, Json.object().put("field", "name"));
        }
        if (roles.isEmpty()) {
            throw new PeopleRefused(400, "invalid_input", "a user needs at least one role", Json.object().put("field", "roles"));
        }
        Runnable free = () -> {
            Set<String> taken = new HashSet<>(reserved);
            taken.addAll(byName.keySet());
            for (String t : taken) {
                if (Names.sameIdentity(t, name)) {
                    throw new PeopleRefused(409, "user_exists", t.equals(name) ? "there is already a user \"" + name + "\""
                            : "\"" + name + "\" looks like the existing user \"" + Names.shown(t) + "\" (the same letters to a "
                            + "reader): choose a name nobody could mistake for it");
                }
            }
        };
        free.run();
        Tokens.Parts token = Tokens.issue();
        ObjectNode rec = Json.object().put("op", "add").put("name", name);
        roles.forEach(r -> rec.withArray("roles").add(r.wire()));
        rec.put("credential", token.credentialId()).put("hash", TokenHash.hash(token.secret(), cost))
                .put("at", Instant.now().toString()).put("by", by);
        write(rec, free);
        return new Issued(byName.get(name), token.token());
    }

    /** A new token for {@code name}; the old one stops working at once. 404 for an unknown user. */
    public synchronized Issued rotate(String name, String by) {
        known(name);
        Tokens.Parts token = Tokens.issue();
        write(Json.object().put("op", "rotate").put("name", name).put("credential", token.credentialId())
                .put("hash", TokenHash.hash(token.secret(), cost)).put("at", Instant.now().toString()).put("by", by),
                () -> known(name));
        return new Issued(byName.get(name), token.token());
    }

    /** Removes {@code name}; their token stops working at once. 404 for an unknown user. */
    public synchronized User remove(String name, String by) {
        User u = known(name);
        write(Json.object().put("op", "remove").put("name", name).put("at", Instant.now().toString()).put("by", by),
                () -> known(name));
        return u;
    }

    private User known(String name) {
        User u = name == null ? null : byName.get(name);
        if (u == null) {
            throw new PeopleRefused(404, "unknown_user", "there is no user \"" + Names.shown(name == null ? "" : name) + "\"");
        }
        return u;
    }

    /**
     * Appends one change as the journal's next entry, then applies it: a change the store refused
     * never takes effect. {@code stillValid} is asked again after catching up with a change another
     * node appended first (a name taken meanwhile, a user removed meanwhile).
     */
    private void write(ObjectNode rec, Runnable stillValid) {
        for (int attempt = 0; attempt < 100; attempt++) {
            catchUp();
            stillValid.run();
            long seq;
            synchronized (this) {
                seq = applied + 1;
            }
            if (journal.append(seq, Json.write(rec))) {
                catchUp();
                return;
            }
        }
        throw new PeopleRefused(503, "busy", "the users changed too often at once to record this change: try again");
    }

    /** Forces and closes the file (a server's shutdown, the end of a CLI command); a cluster's journal stays. */
    public synchronized void close() {
        if (journal instanceof FileJournal f) {
            f.close();
        }
    }
}
