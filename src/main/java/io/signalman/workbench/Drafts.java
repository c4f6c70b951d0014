package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.BundleText;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Drafts: server-side copies of the rule bundle under {@code <data>/workbench/drafts/<id>/rules/},
 * each edited file by file, with a record ({@link DraftRecords}) of the revision it was made
 * from, its version and its status. Every change names the version it was made to, and a change
 * to an older version is refused (409 {@code draft_changed}): two people saving one draft cannot
 * lose each other's edits. A closed draft ({@link DraftStatus}) takes no change. A draft is
 * bounded (file size, total size, file count), its file names cannot leave its folder
 * ({@link DraftPaths}), and closed drafts are pruned, oldest first, past {@link #KEEP_CLOSED}.
 * Methods do file I/O: call them on a worker. Changes are serialized by this object's lock (each
 * is a few small file writes; compiling happens outside it).
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

    private final Path root;
    private final Revisions revisions;
    private final DraftRecords records;

    Drafts(Path data, Revisions revisions) {
        this.root = data.resolve("workbench").resolve("drafts");
        this.revisions = revisions;
        this.records = new DraftRecords(root);
    }

    /**
     * A new open draft holding a copy of {@code files}, made from {@code base} (the live rules;
     * kept in {@link Revisions}, so that a rebase can tell the draft's own changes). {@code origin}
     * says where it came from, {@code note} is a suggested activation note (or null), {@code by}
     * who made it: its first author.
     */
    synchronized String create(BundleFiles base, Map<String, byte[]> files, String origin, String note, String by) {
        List<String> ids = ids();
        long open = ids.stream().filter(i -> !DraftRecords.closed(records.read(i).path("status").asText())).count();
        if (open >= MAX_DRAFTS) {
            throw new WorkbenchException(409, "too_many_drafts", "there are already " + MAX_DRAFTS
                    + " open drafts: discard one first");
        }
        revisions.keep(base);
        byte[] raw = new byte[8];
        RANDOM.nextBytes(raw);
        String id = HexFormat.of().formatHex(raw);
        try {
            Path rules = root.resolve(id).resolve("rules");
            Files.createDirectories(rules);
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path target = DraftPaths.resolve(rules, f.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue());
            }
            String now = Instant.now().toString();
            ObjectNode meta = Json.object().put("id", id).put("base_revision", base.revision()).put("created_at", now)
                    .put("origin", origin).put("status", "open").put("version", 1).put("saved_at", now);
            meta.put("suggested_note", note);
            meta.put("created_by", by);
            meta.putArray("authors").add(by);
            records.write(id, meta);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a draft under " + root, e);
        }
        prune(ids);
        return id;
    }

    /** The draft's rules folder; 404 for an unknown or malformed id. */
    Path rules(String id) {
        if (id == null || !ID.matcher(id).matches() || !Files.isDirectory(root.resolve(id).resolve("rules"))) {
            throw new WorkbenchException(404, "unknown_draft", "no draft \"" + (id == null ? "" : id.length() > 40
                    ? id.substring(0, 40) : id) + "\"");
        }
        return root.resolve(id).resolve("rules");
    }

    ObjectNode meta(String id) {
        rules(id);
        return records.read(id);
    }

    List<String> ids() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> ID.matcher(n).matches())
                    .filter(n -> Files.isRegularFile(root.resolve(n).resolve("draft.json"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    BundleFiles files(String id) {
        try {
            return BundleFiles.read(rules(id));
        } catch (BundleException e) {
            throw WorkbenchException.located(422, "draft_unreadable", "the draft's folder cannot be read", e.errors());
        }
    }

    String read(String id, String name) {
        Path p = DraftPaths.resolve(rules(id), name);
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new WorkbenchException(404, "unknown_file", "the draft has no file \"" + name + "\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes one file (creating it when new), within the draft's bounds, to {@code version}; {@code by} becomes an author. */
    synchronized void write(String id, String name, String text, long version, String by) {
        Path p = DraftPaths.resolve(rules(id), name);
        ObjectNode meta = records.editable(id, version);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_FILE_BYTES) {
            throw new WorkbenchException(413, "file_too_large", name + " is " + bytes.length + " bytes; a draft file may have at most "
                    + MAX_FILE_BYTES);
        }
        List<BundleError> controls = BundleText.refusals(name, text);
        if (!controls.isEmpty()) {
            // Refused at the save, not only at the compile: a reviewer approves what the screen shows.
            throw WorkbenchException.located(422, "control_characters", controls.get(0) + ": nothing was saved", controls);
        }
        bounded(files(id).overlay(Map.of(name, bytes)));
        try {
            Files.createDirectories(p.getParent());
            AtomicFiles.write(p, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        records.saved(id, meta, name, by);
    }

    synchronized void delete(String id, String name, long version, String by) {
        Path p = DraftPaths.resolve(rules(id), name);
        ObjectNode meta = records.editable(id, version);
        try {
            if (!Files.deleteIfExists(p)) {
                throw new WorkbenchException(404, "unknown_file", "the draft has no file \"" + name + "\"");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        records.saved(id, meta, name, by);
    }

    /**
     * Replaces every file of the draft (a rebase): {@code files} is the whole new content, made
     * against {@code base}, the revision the draft is now made from.
     */
    synchronized void replace(String id, long version, BundleFiles base, Map<String, byte[]> files, String by) {
        ObjectNode meta = records.editable(id, version);
        Path rules = rules(id);
        BundleFiles now = files(id);
        try {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Path target = DraftPaths.resolve(rules, f.getKey());
                Files.createDirectories(target.getParent());
                AtomicFiles.write(target, f.getValue());
            }
            for (String p : now.paths()) {
                if (!files.containsKey(p)) {
                    Files.deleteIfExists(DraftPaths.resolve(rules, p));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        revisions.keep(base);
        meta.put("rebased_from", meta.path("base_revision").asText());
        meta.put("base_revision", base.revision());
        records.saved(id, meta, null, by);
    }

    /** Closes the draft as discarded: kept to be read, never changed again. */
    synchronized void discard(String id) {
        rules(id);
        if (records.activating(id)) {
            throw new WorkbenchException(409, "draft_activating", "the draft is being activated right now");
        }
        records.closeAs(id, "discarded");
    }

    /**
     * Marks the draft as going through activation (its version must be {@code version} when one
     * is given); no change is taken until {@link #activated} or {@link #released}.
     */
    synchronized void activating(String id, Long version) {
        rules(id);
        records.editable(id, version == null ? records.read(id).path("version").asLong(1) : version);
        records.startActivation(id);
    }

    /** The activation went through as {@code seq}: the draft is closed, its suggested note cleared. */
    synchronized void activated(String id, long seq) {
        records.endActivation(id);
        ObjectNode meta = records.read(id);
        meta.put("activated_as", seq).putNull("suggested_note");
        records.write(id, meta);
        records.closeAs(id, "activated");
    }

    /** The activation was refused: the draft takes changes again. */
    synchronized void released(String id) {
        records.endActivation(id);
    }

    private static void bounded(BundleFiles now) {
        long total = now.paths().stream().mapToLong(f -> now.bytes(f).length).sum();
        if (now.paths().size() > MAX_FILES || total > MAX_DRAFT_BYTES) {
            throw new WorkbenchException(413, "draft_too_large", "a draft may hold at most " + MAX_FILES + " files and "
                    + MAX_DRAFT_BYTES + " bytes");
        }
    }

    /** Closed drafts past {@link #KEEP_CLOSED}, the longest closed first, are deleted. */
    private void prune(List<String> ids) {
        List<ObjectNode> closed = ids.stream().map(records::read).filter(m -> !m.path("closed_at").isMissingNode()
                && !m.path("closed_at").isNull()).sorted(java.util.Comparator.comparing(m -> m.path("closed_at").asText())).toList();
        for (int i = 0; i < closed.size() - KEEP_CLOSED; i++) {
            deleteTree(root.resolve(closed.get(i).path("id").asText()));
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
