package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.control.DraftStore;
import io.signalman.control.DraftStore.Draft;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.BundleText;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Drafts: server-side copies of the rule bundle, each edited file by file, with a record
 * ({@link DraftRecords}) of the revision it was made from, its version and its status, held by the
 * control plane's {@link DraftStore} (a single node's data directory, or the cluster's map, so a
 * draft made on one node opens on every other). Every change names the version it was made to,
 * and a change to an older version is refused (409 {@code draft_changed}): the store's
 * compare-and-set on the version means two people saving one draft, on one node or two, cannot
 * lose each other's edits. A closed draft ({@link DraftStatus}) takes no change. A draft is
 * bounded (file size, total size, file count), its file names cannot leave its folder
 * ({@link DraftPaths}), and closed drafts are pruned, oldest first, past {@link #KEEP_CLOSED}.
 * Methods block on the store: call them on a worker.
 */
final class Drafts {

    static final int MAX_FILE_BYTES = 256 * 1024;
    static final long MAX_DRAFT_BYTES = 4L * 1024 * 1024;
    static final int MAX_FILES = 200;
    /** Open drafts at once; closed ones are kept apart, up to {@link #KEEP_CLOSED}. */
    static final int MAX_DRAFTS = 50;
    static final int KEEP_CLOSED = 50;
    private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Where draft file names are checked against: a name that resolves outside it is refused. */
    private static final Path NAMES = Path.of("/draft/rules");

    private final DraftStore store;
    private final Revisions revisions;
    private final DraftRecords records = new DraftRecords();
    /** Told of each draft that changed here (created, saved, discarded, asked for review, activated). */
    private volatile java.util.function.Consumer<String> changed = id -> { };

    void onChange(java.util.function.Consumer<String> listener) {
        this.changed = listener;
    }

    Drafts(DraftStore store, Revisions revisions) {
        this.store = store;
        this.revisions = revisions;
    }

    /**
     * A new open draft holding a copy of {@code files}, made from {@code base} (the live rules;
     * kept in {@link Revisions}, so that a rebase can tell the draft's own changes). {@code origin}
     * says where it came from, {@code note} is a suggested activation note (or null), {@code by}
     * who made it: its first author.
     */
    String create(BundleFiles base, Map<String, byte[]> files, String origin, String note, String by) {
        List<String> ids = ids();
        long open = ids.stream().map(store::get).filter(d -> d != null && !DraftRecords.closed(d.record().path("status").asText()))
                .count();
        if (open >= MAX_DRAFTS) {
            throw new WorkbenchException(409, "too_many_drafts", "there are already " + MAX_DRAFTS
                    + " open drafts: discard one first");
        }
        revisions.keep(base);
        SortedMap<String, byte[]> copy = new TreeMap<>();
        files.forEach((p, b) -> {
            DraftPaths.resolve(NAMES, p);
            copy.put(p, b);
        });
        String id;
        do {
            byte[] raw = new byte[8];
            RANDOM.nextBytes(raw);
            id = HexFormat.of().formatHex(raw);
            String now = Instant.now().toString();
            ObjectNode meta = Json.object().put("id", id).put("base_revision", base.revision()).put("created_at", now)
                    .put("origin", origin).put("status", "open").put("version", 1).put("saved_at", now);
            meta.put("suggested_note", note);
            meta.put("created_by", by);
            meta.putArray("authors").add(by);
            if (store.create(id, new Draft(meta, copy))) {
                break;
            }
        } while (true);
        prune(ids);
        changed.accept(id);
        return id;
    }

    /** The draft; 404 for an unknown or malformed id. */
    private Draft draft(String id) {
        Draft d = id == null || !ID.matcher(id).matches() ? null : store.get(id);
        if (d == null) {
            throw new WorkbenchException(404, "unknown_draft", "no draft \"" + (id == null ? "" : id.length() > 40
                    ? id.substring(0, 40) : id) + "\"");
        }
        return d;
    }

    ObjectNode meta(String id) {
        return draft(id).record();
    }

    List<String> ids() {
        return store.ids().stream().filter(n -> ID.matcher(n).matches()).toList();
    }

    BundleFiles files(String id) {
        return BundleFiles.of(Path.of("drafts", id == null ? "" : id), draft(id).files());
    }

    String read(String id, String name) {
        DraftPaths.resolve(NAMES, name);
        byte[] b = draft(id).files().get(name);
        if (b == null) {
            throw new WorkbenchException(404, "unknown_file", "the draft has no file \"" + name + "\"");
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Writes one file (creating it when new), within the draft's bounds, to {@code version}; {@code by} becomes an author. */
    void write(String id, String name, String text, long version, String by) {
        DraftPaths.resolve(NAMES, name);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        change(id, version, d -> {
            if (bytes.length > MAX_FILE_BYTES) {
                throw new WorkbenchException(413, "file_too_large", name + " is " + bytes.length + " bytes; a draft file may have "
                        + "at most " + MAX_FILE_BYTES);
            }
            List<BundleError> controls = BundleText.refusals(name, text);
            if (!controls.isEmpty()) {
                // Refused at the save, not only at the compile: a reviewer approves what the screen shows.
                throw WorkbenchException.located(422, "control_characters", controls.get(0) + ": nothing was saved", controls);
            }
            SortedMap<String, byte[]> files = new TreeMap<>(d.files());
            files.put(name, bytes);
            bounded(files);
            return new Draft(DraftRecords.saved(d.record(), name, by), files);
        });
    }

    void delete(String id, String name, long version, String by) {
        DraftPaths.resolve(NAMES, name);
        change(id, version, d -> {
            if (!d.files().containsKey(name)) {
                throw new WorkbenchException(404, "unknown_file", "the draft has no file \"" + name + "\"");
            }
            SortedMap<String, byte[]> files = new TreeMap<>(d.files());
            files.remove(name);
            return new Draft(DraftRecords.saved(d.record(), name, by), files);
        });
    }

    /**
     * Replaces every file of the draft (a rebase): {@code files} is the whole new content, made
     * against {@code base}, the revision the draft is now made from.
     */
    void replace(String id, long version, BundleFiles base, Map<String, byte[]> files, String by) {
        files.keySet().forEach(p -> DraftPaths.resolve(NAMES, p));
        revisions.keep(base);
        change(id, version, d -> {
            ObjectNode meta = d.record();
            meta.put("rebased_from", meta.path("base_revision").asText());
            meta.put("base_revision", base.revision());
            return new Draft(DraftRecords.saved(meta, null, by), new TreeMap<>(files));
        });
    }

    /** One change made to {@code version}: refused when the draft moved on, here or on another node. */
    private void change(String id, long version, UnaryOperator<Draft> edit) {
        Draft before = draft(id);
        ObjectNode meta = records.editable(id, before.record(), version);
        Draft after = edit.apply(new Draft(meta, before.files()));
        if (!store.replace(id, before, after)) {
            throw DraftRecords.changed(draft(id).record(), version);
        }
        changed.accept(id);
    }

    /** Closes the draft as discarded: kept to be read, never changed again. */
    void discard(String id) {
        draft(id);
        if (records.activating(id)) {
            throw new WorkbenchException(409, "draft_activating", "the draft is being activated right now");
        }
        record(id, m -> DraftRecords.closedAs(m, "discarded"));
    }

    /**
     * Marks the draft as going through activation (its version must be {@code version} when one
     * is given); no change is taken on this node until {@link #activated} or {@link #released}.
     */
    synchronized void activating(String id, Long version) {
        ObjectNode meta = meta(id);
        records.editable(id, meta, version == null ? meta.path("version").asLong(1) : version);
        records.startActivation(id);
    }

    /** The activation went through as {@code seq}: the draft is closed, its suggested note cleared. */
    void activated(String id, long seq) {
        records.endActivation(id);
        record(id, m -> {
            ObjectNode closed = DraftRecords.closedAs(m, "activated");
            return closed == null ? null : closed.put("activated_as", seq).putNull("suggested_note");
        });
    }

    /**
     * The author asks for review of the draft's content as it is now ({@code contentHash}), with a
     * note: the draft is {@code in_review} until its content changes.
     */
    void requestReview(String id, String by, String note, String contentHash) {
        record(id, m -> {
            if (DraftRecords.closed(m.path("status").asText())) {
                throw new WorkbenchException(409, "draft_closed", "this draft is " + m.path("status").asText()
                        + ": there is nothing to review");
            }
            m.putObject("review").put("requested_by", by).put("requested_at", Instant.now().toString()).put("note", note)
                    .put("content_hash", contentHash);
            return m;
        });
    }

    /** The activation was refused: the draft takes changes again. */
    void released(String id) {
        records.endActivation(id);
    }

    /** Changes the draft's record only (its files stay), again from the stored draft when another change landed first. */
    private void record(String id, UnaryOperator<ObjectNode> edit) {
        for (int attempt = 0; attempt < 20; attempt++) {
            Draft d = draft(id);
            ObjectNode next = edit.apply(d.record().deepCopy());
            if (next == null) {
                return;
            }
            if (store.replace(id, d, new Draft(next, d.files()))) {
                changed.accept(id);
                return;
            }
        }
        throw new WorkbenchException(503, "busy", "the draft changed too often at once to record this: try again");
    }

    private static void bounded(Map<String, byte[]> files) {
        long total = files.values().stream().mapToLong(b -> b.length).sum();
        if (files.size() > MAX_FILES || total > MAX_DRAFT_BYTES) {
            throw new WorkbenchException(413, "draft_too_large", "a draft may hold at most " + MAX_FILES + " files and "
                    + MAX_DRAFT_BYTES + " bytes");
        }
    }

    /** Closed drafts past {@link #KEEP_CLOSED}, the longest closed first, are deleted. */
    private void prune(List<String> ids) {
        List<ObjectNode> closed = ids.stream().map(store::get).filter(d -> d != null).map(Draft::record)
                .filter(m -> !m.path("closed_at").isMissingNode() && !m.path("closed_at").isNull())
                .sorted(java.util.Comparator.comparing(m -> m.path("closed_at").asText())).toList();
        for (int i = 0; i < closed.size() - KEEP_CLOSED; i++) {
            store.delete(closed.get(i).path("id").asText());
        }
    }
}
