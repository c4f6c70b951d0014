package io.signalman.cli;

import io.signalman.people.AuditKey;
import java.nio.file.Path;

/**
 * {@code --audit-key-file FILE} (or {@code SIGNALMAN_AUDIT_KEY_FILE}), taken by every command that
 * reads or writes the audit log: {@code serve}, {@code users}, {@code audit verify}, {@code audit key} and
 * {@code data verify}. A file, not the key itself, so that the key is in no process's arguments or
 * environment; a file that is unsafe or too short is a usage error saying why ({@link AuditKey#load}).
 */
final class AuditKeyOption {

    static final String FLAG = "audit-key-file";

    private AuditKeyOption() {
    }

    /** The key the flags name for the data directory {@code data}, or null when none is named. */
    static AuditKey of(Args a, Path data) throws Args.UsageException {
        String file = a.get(FLAG, null);
        if (file == null) {
            return null;
        }
        if (file.isBlank()) {
            throw new Args.UsageException("--" + FLAG + " (or SIGNALMAN_AUDIT_KEY_FILE) is empty: name the key's file, "
                    + "or leave both unset to keep the audit log unkeyed");
        }
        try {
            return AuditKey.load(Path.of(file), data);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }
}
