package io.signalman.rulesgit;

import java.util.regex.Pattern;

/**
 * A person as a commit names them: a name and an address. Signalman's users have names, not
 * addresses, so a name that is itself an address ({@code ana@example.com}, which a user name may
 * be) is its own address, and any other gets one under {@code signalman.invalid}, a domain that
 * never receives mail (RFC 2606): {@code bo} is {@code bo <bo@signalman.invalid>}. Names come from
 * users and identity providers, so anything that would break a commit header (control characters,
 * {@code <} and {@code >}) is taken out.
 */
public record Identity(String name, String email) {

    /** The domain of the addresses made up for names that are none. */
    public static final String DOMAIN = "signalman.invalid";

    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]{1,63}(\\.[A-Za-z0-9-]{1,63})+");
    private static final Pattern NOT_LOCAL = Pattern.compile("[^A-Za-z0-9._+-]");

    public Identity {
        name = Trailers.oneLine(name).replace("<", "").replace(">", "").strip();
        if (name.isEmpty()) {
            name = "unknown";
        }
    }

    /** The identity of the user {@code name}. */
    public static Identity of(String name) {
        String shown = new Identity(name == null ? "" : name, "").name();
        if (ADDRESS.matcher(shown).matches()) {
            return new Identity(shown, shown);
        }
        String local = NOT_LOCAL.matcher(shown).replaceAll("_");
        local = local.length() > 64 ? local.substring(0, 64) : local;
        return new Identity(shown, local + "@" + DOMAIN);
    }

    /** As a trailer names a person: {@code name <email>}. */
    public String toTrailer() {
        return name + " <" + email + ">";
    }
}
