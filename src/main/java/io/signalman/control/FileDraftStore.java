package io.signalman.control;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A single node's drafts, {@code <data>/workbench/drafts/<id>/}: the record in {@code draft.json}
 * and the files under {@code rules/}. A replace writes only the files that changed (each
 * atomically), then the record; changes are serialized by this store's lock, and the record's
 * version is compared under it.
 */
public final class FileDraftStore implements DraftStore {

    private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");

    private final Path root;

    public FileDraftStore(Path data) {
        this.root = data.resolve("workbench").resolve("drafts");
    }

    @Override
    public List<String> ids() {
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

    @Override
    public synchronized Draft get(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return null;
        }
        Path record = root.resolve(id).resolve("draft.json");
        if (!Files.isRegularFile(record)) {
            return null;
        }
        try {
            return new Draft((ObjectNode) Json.parse(Files.readAllBytes(record)), Folders.read(root.resolve(id).resolve("rules")));
        } catch (IOException | io.signalman.json.InputException | ClassCastException e) {
            throw new IllegalStateException("the draft's draft.json cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized boolean create(String id, Draft draft) {
        Path dir = root.resolve(id);
        if (Files.exists(dir)) {
            return false;
        }
        try {
            Path rules = dir.resolve("rules");
            Files.createDirectories(rules);
            Folders.write(rules, draft.files());
            AtomicFiles.write(dir.resolve("draft.json"), Json.bytes(draft.record()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a draft under " + root, e);
        }
        return true;
    }

    @Override
    public synchronized boolean replace(String id, Draft before, Draft after) {
        Draft now = get(id);
        if (now == null || now.version() != before.version()) {
            return false;
        }
        Path rules = root.resolve(id).resolve("rules");
        try {
            java.util.Map<String, byte[]> changed = new java.util.TreeMap<>();
            after.files().forEach((p, b) -> {
                if (!Arrays.equals(now.files().get(p), b)) {
                    changed.put(p, b);
                }
            });
            Folders.write(rules, changed);
            for (String p : now.files().keySet()) {
                if (!after.files().containsKey(p)) {
                    Files.deleteIfExists(rules.resolve(p));
                }
            }
            AtomicFiles.write(root.resolve(id).resolve("draft.json"), Json.bytes(after.record()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write draft " + id, e);
        }
        return true;
    }

    @Override
    public synchronized void delete(String id) {
        Folders.deleteTree(root.resolve(id));
    }
}
