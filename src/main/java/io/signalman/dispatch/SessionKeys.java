package io.signalman.dispatch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The session key: {@code agent:<agent id>:<32 hex digits>}, the digits a SHA-256 of a canonical
 * text of the agent, channel, account and the policy's dimension values.
 *
 * <p>The canonical text lists each part as {@code name=<length>:<value>} on its own line, so no
 * value can be read as another (an id containing {@code :} or a newline cannot collide), and the
 * dimensions in one fixed order (space, chat, topic, sender): a policy is a set, and
 * {@code [sender, chat]} isolates exactly like {@code [chat, sender]}. The sender is the canonical
 * one, so every identity-linked id of a person lands in the same session.
 */
public final class SessionKeys {

    private SessionKeys() {
    }

    public static String of(String agent, String channel, String account, SessionPolicy policy, Inbound view) {
        return of(SessionScope.of(agent, channel, account, policy, view));
    }

    /** The key of a scope: everything in it, nothing else (the decision shows the scope beside the key). */
    public static String of(SessionScope scope) {
        StringBuilder canonical = new StringBuilder(128);
        part(canonical, "agent", scope.agent());
        part(canonical, "channel", scope.channel());
        part(canonical, "account", scope.account());
        scope.dimensions().forEach((d, value) -> part(canonical, d, value));
        return "agent:" + scope.agent() + ":" + HexFormat.of().formatHex(sha256(canonical.toString()), 0, 16);
    }

    private static void part(StringBuilder out, String name, String value) {
        out.append(name).append('=').append(value.length()).append(':').append(value).append('\n');
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
