package io.signalman.dispatch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a session key is made of, shown in the decision so that an operator can see why two
 * messages share a session: the agent, channel and account, then the values of the policy's
 * dimensions in the key's fixed order (space, chat, topic, sender), the sender after identity
 * links. Two messages share a session exactly when their scopes are equal; the key is a hash of
 * this and nothing else ({@link SessionKeys}).
 *
 * @param dimensions the policy's dimensions with their values, in key order
 */
public record SessionScope(String agent, String channel, String account, Map<String, String> dimensions) {

    public SessionScope {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
    }

    /** The scope of a message under a policy: its view's values of the policy's dimensions. */
    public static SessionScope of(String agent, String channel, String account, SessionPolicy policy, Inbound view) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String d : SessionPolicy.DIMENSIONS) {
            if (policy.dimensions().contains(d)) {
                values.put(d, view.dimension(d));
            }
        }
        return new SessionScope(agent, channel, account, values);
    }
}
