package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.datadir.Writing;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who a token belongs to: the admin token is the bootstrap user with every role; a user's token is
 * that user until it is rotated or the user removed, at once; a wrong token is refused without
 * saying why (the reason is counted); an address that failed too often is refused (429) before
 * its token is looked at, even a right one, and may try again once it has waited; no refusal
 * holds the token.
 */
class AuthenticatorTest {

    /** Cheap hashes: the cost is a setting, the checks are the same. */
    private static final HashCost CHEAP = new HashCost(64, 1, 1);
    private static final String ADMIN = "authenticator-test-admin-token";

    @TempDir
    Path data;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private Authenticator authenticator(UserStore users) {
        return new Authenticator(ADMIN, "admin", null, users, null, 3, now::get);
    }

    @Test
    void theAdminTokenIsTheBootstrapUserWithEveryRole() {
        Principal p = authenticator(UserStore.open(data, Writing.plain(), CHEAP, Set.of("admin"))).authenticate(ADMIN, "10.0.0.1");
        assertEquals("admin", p.name());
        for (Role r : Role.values()) {
            assertTrue(p.has(r), r.wire());
        }
    }

    @Test
    void aUsersTokenWorksUntilItIsRotatedOrTheUserRemoved() {
        UserStore users = UserStore.open(data, Writing.plain(), CHEAP, Set.of("admin"));
        Authenticator auth = authenticator(users);
        String token = users.add("ana", EnumSet.of(Role.AUTHOR), "admin").token();

        Principal ana = auth.authenticate(token, "10.0.0.1");
        assertEquals("ana", ana.name());
        assertTrue(ana.has(Role.AUTHOR) && ana.has(Role.VIEWER));
        assertFalse(ana.has(Role.APPROVER) || ana.has(Role.OPERATOR) || ana.has(Role.ADMIN));

        String rotated = users.rotate("ana", "admin").token();
        PeopleRefused old = assertThrows(PeopleRefused.class, () -> auth.authenticate(token, "10.0.0.1"));
        assertEquals(403, old.status());
        assertFalse(old.getMessage().contains(token), "a refusal never holds the token");
        assertEquals(1, auth.failures("revoked"));
        assertEquals("ana", auth.authenticate(rotated, "10.0.0.1").name());

        users.remove("ana", "admin");
        assertEquals(403, assertThrows(PeopleRefused.class, () -> auth.authenticate(rotated, "10.0.0.1")).status());
        assertEquals(null, auth.remembered(rotated), "a removed user's remembered token is forgotten at once");
    }

    @Test
    void anAddressThatFailedTooOftenIsRefusedEvenWithARightTokenUntilItWaits() {
        Authenticator auth = authenticator(UserStore.open(data, Writing.plain(), CHEAP, Set.of("admin")));
        for (int i = 0; i < 3; i++) {
            assertEquals(403, assertThrows(PeopleRefused.class, () -> auth.authenticate("guess", "10.0.0.9")).status());
        }
        assertEquals(3, auth.failures("unknown_token"));

        PeopleRefused throttled = assertThrows(PeopleRefused.class, () -> auth.authenticate(ADMIN, "10.0.0.9"));
        assertEquals(429, throttled.status());
        assertTrue(throttled.retryAfterSeconds() >= 1 && throttled.retryAfterSeconds() <= 20, "" + throttled.retryAfterSeconds());
        assertEquals(1, auth.throttled());
        // Another address is not held back by this one's failures
        assertEquals("admin", auth.authenticate(ADMIN, "10.0.0.10").name());

        now.addAndGet(TimeUnit.SECONDS.toNanos(throttled.retryAfterSeconds()));
        assertEquals("admin", auth.authenticate(ADMIN, "10.0.0.9").name());
    }

    @Test
    void noNameCanBeTakenThatLooksLikeAnother() {
        UserStore users = UserStore.open(data, Writing.plain(), CHEAP, Set.of("admin"));
        users.add("ana", EnumSet.of(Role.AUTHOR), "admin");
        assertEquals(409, assertThrows(PeopleRefused.class, () -> users.add("ana", EnumSet.of(Role.VIEWER), "admin")).status());
        assertEquals(409, assertThrows(PeopleRefused.class, () -> users.add("adrnin", EnumSet.of(Role.VIEWER), "admin")).status(),
                "rn reads as m: adrnin would pass for admin");
        assertEquals(400, assertThrows(PeopleRefused.class, () -> users.add("Ana Lopez", EnumSet.of(Role.VIEWER), "admin"))
                .status());
    }
}
