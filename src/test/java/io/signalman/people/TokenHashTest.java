package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenHashTest {

    private static final HashCost CHEAP = new HashCost(64, 2, 1);

    @Test
    void aHashMatchesItsSecretOnlyAndCarriesItsCost() {
        String stored = TokenHash.hash("s3cret", CHEAP);
        assertTrue(stored.startsWith("$argon2id$v=19$m=64,t=2,p=1$"), stored);
        assertTrue(TokenHash.verify("s3cret", stored));
        assertFalse(TokenHash.verify("s3cret!", stored));
        assertNotEquals(stored, TokenHash.hash("s3cret", CHEAP), "every hash has its own salt");
    }

    @Test
    void theUnmatchableHashHasTheStoredFormAndCostOfARealOneAndMatchesNoSecret() {
        // An unknown user's token is checked against it: it must cost what a real hash costs (the same
        // parameters, parsed by verify rather than refused as malformed) and never match.
        String dummy = TokenHash.unmatchable(CHEAP);
        String real = TokenHash.hash("", CHEAP);
        assertEquals(real.substring(0, real.lastIndexOf('$', real.lastIndexOf('$') - 1)),
                dummy.substring(0, dummy.lastIndexOf('$', dummy.lastIndexOf('$') - 1)), "same algorithm and cost");
        assertEquals(real.length(), dummy.length(), "same salt and hash lengths");
        for (String secret : new String[] {"", "s3cret", Tokens.issue().secret()}) {
            assertFalse(TokenHash.verify(secret, dummy), secret);
        }
        assertNotEquals(dummy, TokenHash.unmatchable(CHEAP), "random each time");
    }

    @Test
    void aMalformedStoredHashMatchesNothing() {
        assertFalse(TokenHash.verify("x", null));
        assertFalse(TokenHash.verify("x", "$argon2i$v=19$m=64,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
    }
}
