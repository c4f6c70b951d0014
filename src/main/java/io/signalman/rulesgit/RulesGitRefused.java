package io.signalman.rulesgit;

/** {@code --rules-git} cannot work with this rules folder (not in a Git work tree, a bare repository): no start. */
public final class RulesGitRefused extends RuntimeException {

    public RulesGitRefused(String message) {
        super(message);
    }
}
