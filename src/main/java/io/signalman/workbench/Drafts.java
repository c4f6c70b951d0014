package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Drafts: server-side copies of the rule bundle under {@code <data>/workbench/drafts/<id>/}, each
 * edited file by file. Every save is checked by the same compiler and lint as the live rules. A
 * draft is bounded (file size, total size, file count) and its file names cannot leave its folder
 * ({@link DraftPaths}). Methods do file I/O: call them on a worker.
 */
final class Drafts {

    static final int MAX_FILE_BYTES = 256 * 1024;
    static final long MAX_DRAFT_BYTES = 4L * 1024 * 1024;
    static final int MAX_FILES = 200;
    static final int MAX_DRAFTS = 50;
    private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path root;

    Drafts(Path data) {
        this.root = data.resolve("workbench").resolve("drafts");
    }

    /** A new draft holding a copy of {@code from} (the live bundle's files). */
    String create(BundleFiles from) {
        try {
            Files.createDirectories(root);
            try (Stream<Path> s = Files.list(root)) {
                if (s.count() >= MAX_DRAFTS) {
                    throw new WorkbenchException(409, "too_many_drafts", "there are already " + MAX_DRAFTS
                            + " drafts: delete one first");
                }
            }
            byte[] id = new byte[8];
            RANDOM.nextBytes(id);
            String name = HexFormat.of().formatHex(id);
            Path dir = root.resolve(name);
            Path rules = dir.resolve("rules");
            Files.createDirectories(rules);
            for (String p : from.paths()) {
                Path target = DraftPaths.resolve(rules, p);
                Files.createDirectories(target.getParent());
                Files.write(target, from.bytes(p));
            }
            ObjectNode meta = Json.object().put("id", name).put("base_revision", from.revision())
                    .put("created_at", java.time.Instant.now().toString());
            Files.write(dir.resolve("draft.json"), Json.bytes(meta));
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a draft under " + root, e);
        }
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
        try {
            return (ObjectNode) Json.parse(Files.readAllBytes(rules(id).getParent().resolve("draft.json")));
        } catch (IOException | io.signalman.json.InputException e) {
            throw new WorkbenchException(500, "draft_unreadable", "the draft's draft.json cannot be read: " + e.getMessage());
        }
    }

    List<String> ids() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> ID.matcher(n).matches()).sorted().toList();
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

    /** Writes one file (creating it when new), within the draft's bounds. */
    void write(String id, String name, String text) {
        Path rules = rules(id);
        Path p = DraftPaths.resolve(rules, name);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_FILE_BYTES) {
            throw new WorkbenchException(413, "file_too_large", name + " is " + bytes.length + " bytes; a draft file may have at most "
                    + MAX_FILE_BYTES);
        }
        BundleFiles now = files(id).overlay(Map.of(name, bytes));
        long total = now.paths().stream().mapToLong(f -> now.bytes(f).length).sum();
        if (now.paths().size() > MAX_FILES || total > MAX_DRAFT_BYTES) {
            throw new WorkbenchException(413, "draft_too_large", "a draft may hold at most " + MAX_FILES + " files and "
                    + MAX_DRAFT_BYTES + " bytes");
        }
        try {
            Files.createDirectories(p.getParent());
            AtomicFiles.write(p, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void delete(String id, String name) {
        try {
            if (!Files.deleteIfExists(DraftPaths.resolve(rules(id), name))) {
                throw new WorkbenchException(404, "unknown_file", "the draft has no file \"" + name + "\"");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void discard(String id) {
        Path dir = rules(id).getParent();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
