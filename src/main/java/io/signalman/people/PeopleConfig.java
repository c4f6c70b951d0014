package io.signalman.people;

/**
 * How a server treats people.
 *
 * @param approvals         {@code --approvals N}: approvals by others a draft needs before it is
 *                          activated (0: none, as on {@code make run}; 1 or more in production)
 * @param hashCost          the Argon2id cost of new token hashes
 * @param oidc              bearer JWTs from an OpenID Connect provider, or null
 * @param failuresPerMinute {@code --auth-failures-per-minute}: failed authentications an address
 *                          may make in a burst, and per minute after it
 * @param auditRollBytes    the audit log rolls at this size
 * @param auditKey          {@code --audit-key-file}: the key the audit log's entries are MACed with,
 *                          or null (the log then guards against accidents only)
 */
public record PeopleConfig(int approvals, HashCost hashCost, OidcConfig oidc, int failuresPerMinute, long auditRollBytes,
                           AuditKey auditKey, java.net.URI notifyWebhook) {

    public PeopleConfig(int approvals, HashCost hashCost, OidcConfig oidc, int failuresPerMinute, long auditRollBytes,
                        AuditKey auditKey) {
        this(approvals, hashCost, oidc, failuresPerMinute, auditRollBytes, auditKey, null);
    }

    public static final int DEFAULT_FAILURES_PER_MINUTE = 20;
    public static final int MAX_APPROVALS = 10;

    public PeopleConfig {
        if (approvals < 0 || approvals > MAX_APPROVALS) {
            throw new IllegalArgumentException("--approvals must be 0 to " + MAX_APPROVALS + ", not " + approvals);
        }
        if (failuresPerMinute < 1) {
            throw new IllegalArgumentException("--auth-failures-per-minute must be at least 1, not " + failuresPerMinute);
        }
        if (auditRollBytes < 1024) {
            throw new IllegalArgumentException("the audit log's roll size must be at least 1 KiB");
        }
    }

    public static PeopleConfig defaults() {
        return new PeopleConfig(0, HashCost.defaults(), null, DEFAULT_FAILURES_PER_MINUTE, AuditLog.ROLL_BYTES, null);
    }

    public PeopleConfig withApprovals(int n) {
        return new PeopleConfig(n, hashCost, oidc, failuresPerMinute, auditRollBytes, auditKey, notifyWebhook);
    }

    public PeopleConfig withHashCost(HashCost c) {
        return new PeopleConfig(approvals, c, oidc, failuresPerMinute, auditRollBytes, auditKey, notifyWebhook);
    }

    public PeopleConfig withOidc(OidcConfig o) {
        return new PeopleConfig(approvals, hashCost, o, failuresPerMinute, auditRollBytes, auditKey, notifyWebhook);
    }

    public PeopleConfig withFailuresPerMinute(int n) {
        return new PeopleConfig(approvals, hashCost, oidc, n, auditRollBytes, auditKey, notifyWebhook);
    }

    public PeopleConfig withAuditRollBytes(long b) {
        return new PeopleConfig(approvals, hashCost, oidc, failuresPerMinute, b, auditKey, notifyWebhook);
    }

    /** {@code --notify-webhook URL}: where review hand-offs and activations are told (null: nowhere). */
    public PeopleConfig withNotifyWebhook(java.net.URI url) {
        return new PeopleConfig(approvals, hashCost, oidc, failuresPerMinute, auditRollBytes, auditKey, url);
    }

    public PeopleConfig withAuditKey(AuditKey k) {
        return new PeopleConfig(approvals, hashCost, oidc, failuresPerMinute, auditRollBytes, k, notifyWebhook);
    }

    @Override
    public String toString() {
        return "approvals=" + approvals + " " + hashCost + " auth-failures-per-minute=" + failuresPerMinute
                + (oidc == null ? "" : " " + oidc) + (auditKey == null ? " audit-log-unkeyed" : " " + auditKey);
    }
}
