package io.signalman.control;

import io.signalman.datadir.Writing;
import java.nio.file.Path;

/**
 * A single node's control plane: its data directory, laid out as it always was
 * ({@code users.jsonl}, {@code activations.jsonl}, {@code workbench/drafts/},
 * {@code workbench/revisions/}; the audit log keeps its own files, {@code people.AuditLog}).
 */
public final class LocalControl implements ControlStore {

    private final FileJournal users;
    private final FileJournal activations;
    private final DraftStore drafts;
    private final RevisionStore revisions;

    public LocalControl(Path data, Writing writing) {
        this.users = FileJournal.open(data.resolve("users.jsonl"), writing);
        this.activations = FileJournal.open(data.resolve("activations.jsonl"), writing);
        this.drafts = new FileDraftStore(data);
        this.revisions = new FileRevisionStore(data);
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public String node() {
        return "local";
    }

    @Override
    public Journal journal(String name) {
        return switch (name) {
            case USERS -> users;
            case ACTIVATIONS -> activations;
            default -> throw new IllegalArgumentException("a single node keeps no journal \"" + name + "\" here");
        };
    }

    @Override
    public DraftStore drafts() {
        return drafts;
    }

    @Override
    public RevisionStore revisions() {
        return revisions;
    }

    /** Forces and closes the journals' files. */
    public void close() {
        users.close();
        activations.close();
    }
}
