package io.signalman.cli;

import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.people.AuditKey;
import io.signalman.people.People;
import io.signalman.people.PeopleConfig;
import io.signalman.people.PeopleRefused;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import io.signalman.people.UserStore;
import io.signalman.workbench.WorkbenchOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code signalman users add NAME --role ROLE | list | remove NAME | rotate NAME [--data DIR]
 * [--audit-key-file FILE]}:
 * the users of a data directory no server holds (the directory's lock is taken, so a running
 * server's directory is refused: change its users through {@code /v1/admin/users} instead). Each
 * change is recorded in the audit log as made by {@code cli:<login>}, keyed as a server would key
 * it (a keyed log is refused without its key). A new token is printed
 * once, alone on the last line, so that a script can take it with {@code tail -n 1}; it is kept
 * nowhere but as its hash.
 */
final class UsersCommand {

    private UsersCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "role", "admin-token-name", AuditKeyOption.FLAG), Set.of(), env);
        if (a.positional().isEmpty()) {
            throw new Args.UsageException("users takes add, list, remove or rotate");
        }
        String op = a.positional().get(0);
        int names = "list".equals(op) ? 1 : 2;
        if (!Set.of("add", "list", "remove", "rotate").contains(op) || a.positional().size() != names) {
            throw new Args.UsageException("users add NAME --role ROLE, users list, users remove NAME, users rotate NAME");
        }
        Set<Role> roles = new TreeSet<>();
        if ("add".equals(op)) {
            try {
                for (String r : a.all("role")) {
                    roles.addAll(Role.parseList(r));
                }
            } catch (IllegalArgumentException e) {
                throw new Args.UsageException(e.getMessage());
            }
            if (roles.isEmpty()) {
                throw new Args.UsageException("users add NAME needs --role ROLE (viewer, author, approver, operator, admin; "
                        + "repeat it or separate roles with commas)");
            }
        } else if (!a.all("role").isEmpty()) {
            throw new Args.UsageException("--role is for users add");
        }
        Path data = Path.of(a.get("data", "data"));
        String adminName = a.get("admin-token-name", WorkbenchOptions.DEFAULT_ADMIN_NAME);
        AuditKey key = AuditKeyOption.of(a, data);
        Principal by = new Principal("cli:" + System.getProperty("user.name", "unknown"), EnumSet.of(Role.ADMIN), "cli");
        try (DataDir dir = DataDir.open(data, false);
             People people = People.open(data, Writing.of(dir, Disk.REAL, new Storage(Disk.REAL)),
                     PeopleConfig.defaults().withAuditKey(key), null, adminName, null, null, false)) {
            switch (op) {
                case "list" -> {
                    out.println("the bootstrap admin (the admin token): " + adminName);
                    for (UserStore.User u : people.users().list()) {
                        out.printf("%-24s %-32s since %s by %s%s%n", u.name(), String.join(",", u.roles().stream().map(Role::wire)
                                .toList()), u.createdAt(), u.createdBy(), u.rotatedAt() == null ? "" : ", token rotated " + u.rotatedAt());
                    }
                }
                case "remove" -> {
                    people.removeUser(a.positional().get(1), by);
                    out.println("removed " + a.positional().get(1) + ": their token no longer works");
                }
                case "add", "rotate" -> {
                    String name = a.positional().get(1);
                    UserStore.Issued issued = "add".equals(op) ? people.addUser(name, roles, by) : people.rotate(name, by);
                    out.println(("add".equals(op) ? "added " + name + " (" + String.join(", ", issued.user().roles().stream()
                            .map(Role::wire).toList()) + ")" : "rotated " + name + "'s token: the old one no longer works")
                            + "; the token below is shown this once and kept only as a hash:");
                    out.println(issued.token());
                }
                default -> throw new IllegalStateException(op);
            }
            return 0;
        } catch (PeopleRefused e) {
            err.println("signalman users " + op + ": " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("signalman users " + op + ": " + e.getMessage());
            return 1;
        }
    }
}
