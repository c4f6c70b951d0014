package io.signalman.control;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The folders the local stores keep bundles in: read whole (hidden files and links left out), written, deleted. */
final class Folders {

    private Folders() {
    }

    /** Every regular file under {@code dir} by relative path ('/'); hidden ones (temporary files) and links are not read. */
    static SortedMap<String, byte[]> read(Path dir) {
        SortedMap<String, byte[]> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !hidden(rel)) {
                    out.put(rel, Files.readAllBytes(p));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir, e);
        }
        return out;
    }

    /** Writes each file under {@code dir} (each atomically); {@code paths} were checked by the caller. */
    static void write(Path dir, Map<String, byte[]> files) throws IOException {
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path target = dir.resolve(f.getKey()).normalize();
            if (!target.startsWith(dir.normalize())) {
                throw new IOException("\"" + f.getKey() + "\" is outside " + dir);
            }
            Files.createDirectories(target.getParent());
            AtomicFiles.write(target, f.getValue());
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static boolean hidden(String rel) {
        for (String part : rel.split("/")) {
            if (part.startsWith(".")) {
                return true;
            }
        }
        return false;
    }
}
