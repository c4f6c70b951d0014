package io.signalman.rulesgit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A user as a commit names them: an address of their own when the name is one, else one under signalman.invalid. */
class IdentityTest {

    @Test
    void aNameThatIsAnAddressIsItsOwnAddressAndAnyOtherGetsOneThatReceivesNoMail() {
        assertEquals(new Identity("ana@example.com", "ana@example.com"), Identity.of("ana@example.com"));
        assertEquals(new Identity("bo", "bo@signalman.invalid"), Identity.of("bo"));
        assertEquals(new Identity("José Ruiz", "Jos__Ruiz@signalman.invalid"), Identity.of("José Ruiz"));
        Identity hostile = Identity.of("eve <root@example.com>\nmallory");
        assertTrue(!hostile.name().contains("<") && !hostile.name().contains("\n"), hostile.toString());
        assertTrue(hostile.email().endsWith("@signalman.invalid") && !hostile.email().contains(" "), hostile.toString());
    }
}
