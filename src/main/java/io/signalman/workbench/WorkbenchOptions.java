package io.signalman.workbench;

/**
 * How the workbench is served, beside the server's own configuration.
 *
 * @param readToken      the token that lets a client off loopback read the workbench's API
 *                       ({@code --workbench-token}); null: only loopback clients may read
 * @param adminTokenName the name of the admin token's bootstrap user ({@code --admin-token-name}):
 *                       "who" in {@code data/activations.jsonl} and the audit log for what it
 *                       does, and a name no user may take; the token itself is never written anywhere
 * @param rulesGit       each activation made on this node committed into the rules folder's Git work
 *                       tree ({@code --rules-git}); a start is refused when the folder is in none
 */
public record WorkbenchOptions(String readToken, String adminTokenName, boolean rulesGit) {

    public static final String DEFAULT_ADMIN_NAME = "admin";

    public WorkbenchOptions {
        adminTokenName = adminTokenName == null || adminTokenName.isBlank() ? DEFAULT_ADMIN_NAME : adminTokenName;
        readToken = readToken == null || readToken.isEmpty() ? null : readToken;
    }

    /** Without {@code --rules-git}. */
    public WorkbenchOptions(String readToken, String adminTokenName) {
        this(readToken, adminTokenName, false);
    }

    public static WorkbenchOptions defaults() {
        return new WorkbenchOptions(null, DEFAULT_ADMIN_NAME);
    }

    public WorkbenchOptions withRulesGit(boolean on) {
        return new WorkbenchOptions(readToken, adminTokenName, on);
    }

    @Override
    public String toString() {
        return "workbench-token=" + (readToken == null ? "unset" : "set") + " admin-token-name=" + adminTokenName
                + (rulesGit ? " rules-git" : "");
    }
}
