package io.signalman.people;

import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import java.util.regex.Pattern;

/**
 * User names, and when two are one person. A name a user of the data directory gets is plain:
 * lower-case ASCII letters and digits with {@code . _ - @ +} inside, 1 to 64 of them, so an email
 * address fits. Names from elsewhere (an OpenID Connect claim) may be any Unicode. Two names are
 * one identity when their <em>confusable skeletons</em> match: the Unicode security mechanism of
 * UTS #39 (ICU's {@link SpoofChecker}), after NFKC case folding. "Ana", "ana", "аna" (a Cyrillic
 * а) and "ana" with a zero-width space are one person, as are "rn" and "m", "1" and "l": a second
 * account whose name only looks like the author's cannot approve the author's draft, and no
 * account can be made whose name looks like another's.
 */
public final class Names {

    private static final Pattern LOCAL = Pattern.compile("[a-z0-9](?:[a-z0-9._@+-]{0,62}[a-z0-9])?");
    private static final Normalizer2 FOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final SpoofChecker SPOOF = new SpoofChecker.Builder().build();

    private Names() {
    }

    /** Null when {@code name} may name a user of the data directory, else why not. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "a user needs a name";
        }
        if (!LOCAL.matcher(name).matches()) {
            return "\"" + shown(name) + "\" is not a user name: use 1 to 64 lower-case letters (a-z), digits, and . _ - @ + "
                    + "inside (ana, ana.lopez, ana@example.com)";
        }
        return null;
    }

    /** The name's confusable skeleton after NFKC case folding: equal skeletons are one identity. */
    public static String skeleton(String name) {
        String folded = FOLD.normalize(name);
        synchronized (SPOOF) {
            return FOLD.normalize(SPOOF.getSkeleton(folded));
        }
    }

    /** Whether {@code a} and {@code b} name one identity (neither may be null). */
    public static boolean sameIdentity(String a, String b) {
        return a.equals(b) || skeleton(a).equals(skeleton(b));
    }

    /** A name echoed in a message: printable, cut short. */
    static String shown(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(64).forEach(c -> {
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return s.codePointCount(0, s.length()) > 64 ? b + "..." : b.toString();
    }
}
