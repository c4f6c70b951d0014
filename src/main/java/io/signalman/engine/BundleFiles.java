package io.signalman.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A snapshot of every file under a rules directory, read once, in sorted path order.
 *
 * <p>The revision ({@link #hash}) names exactly what was compiled: two nodes with the same
 * revision serve the same rules, and an approval bound to it approves these files and no others.
 * Symbolic links are refused: DRL is code, and it loads only from the configured directory.
 */
public final class BundleFiles {

    /** Names the revision's format (see {@link #hash}); hashed first. */
    private static final String FORMAT = "signalman-bundle-2";

    /** The folder of a pack that holds its scenarios. */
    public static final String SCENARIOS = "scenarios/";

    private final Path root;
    private final Map<String, byte[]> files;
    private final String revision;

    private BundleFiles(Path root, Map<String, byte[]> files) {
        this.root = root;
        this.files = Collections.unmodifiableMap(files);
        this.revision = hash(files);
    }

    /** Reads the directory; runs on a worker thread (file I/O). */
    /**
     * The largest file of a bundle, and the largest bundle: a rule file has its own bound in
     * characters, and reference data is parsed into facts every session holds, so a 100 MB org chart
     * (25 million one-letter authorities) ended {@code check} on OutOfMemoryError. The shipped
     * bundle is 60 KB.
     */
    public static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
    public static final long MAX_BUNDLE_BYTES = 32L * 1024 * 1024;

    static String tooLarge(long size) {
        return "the file is " + size + " bytes, more than the " + MAX_FILE_BYTES + " a file of a rule bundle may be: split it";
    }

    static String bundleTooLarge() {
        return "the bundle is larger than the " + MAX_BUNDLE_BYTES + " bytes a rule bundle may be; nothing after this file "
                + "was read";
    }

    public static BundleFiles read(Path root) throws BundleException {
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new BundleException(new BundleError(".", 0, 0, "rules directory not found: " + root));
        }
        Map<String, byte[]> files = new TreeMap<>();
        List<BundleError> errors = new ArrayList<>();
        long total = 0;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String rel = relative(dir, p);
                if (Files.isSymbolicLink(p)) {
                    errors.add(new BundleError(rel, 0, 0, "symbolic links are refused: rules load only from the rules directory"));
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !isHidden(rel)) {
                    long size = Files.size(p);
                    total += size;
                    if (size > MAX_FILE_BYTES) {
                        errors.add(new BundleError(rel, 0, 0, tooLarge(size)));
                    } else if (total > MAX_BUNDLE_BYTES) {
                        errors.add(new BundleError(rel, 0, 0, bundleTooLarge()));
                        break;
                    } else {
                        files.put(rel, Files.readAllBytes(p));
                    }
                }
            }
        } catch (IOException e) {
            throw new BundleException(new BundleError(".", 0, 0, "cannot read rules directory: " + e.getMessage()));
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return new BundleFiles(dir, files);
    }

    /**
     * Files given as they are (a live trial's candidate, shared between cluster members): the
     * revision is computed from them here, never taken on trust. {@code root} is only where they
     * are said to come from.
     */
    public static BundleFiles of(Path root, Map<String, byte[]> files) {
        return new BundleFiles(root, new TreeMap<>(files));
    }

    /** A copy in which some files are replaced or added (reference-data overlays for replay). */
    public BundleFiles overlay(Map<String, byte[]> replacements) {
        Map<String, byte[]> copy = new TreeMap<>(files);
        copy.putAll(replacements);
        return new BundleFiles(root, copy);
    }

    public Path root() {
        return root;
    }

    public String revision() {
        return revision;
    }

    /** Relative paths (with '/') in sorted order. */
    public List<String> paths() {
        return List.copyOf(files.keySet());
    }

    public Optional<String> text(String path) {
        byte[] b = files.get(path);
        return b == null ? Optional.empty() : Optional.of(new String(b, StandardCharsets.UTF_8));
    }

    public byte[] bytes(String path) {
        return files.get(path);
    }

    /**
     * Whether a bundle path is a scenario file ({@code <pack>/scenarios/...}): part of the bundle
     * and its revision, so a scenario change is a reload like a rule change, but neither DRL nor
     * reference data; {@code io.signalman.scenario} reads it.
     */
    public static boolean isScenario(String path) {
        int slash = path.indexOf('/');
        return slash > 0 && path.startsWith(SCENARIOS, slash + 1);
    }

    private static boolean isHidden(String rel) {
        for (String part : rel.split("/")) {
            if (part.startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String relative(Path root, Path p) {
        return root.relativize(p).toString().replace('\\', '/');
    }

    /**
     * {@code sha256:} over a format tag, then each file in sorted path order as its path's length,
     * its path (UTF-8), its content's length and its content (lengths as 8-byte big-endian).
     *
     * <p>NOTE(format): every field is framed by its length, so the bytes hashed read back into
     * one set of files only. The first format ({@code path \0 bytes \0} per file) did not: a
     * file holding {@code \0other.drl\0...} hashed like two files, so an approval of a README
     * stood for a rule file split out of it. The revision is the approvals' binding, the trials'
     * and the cluster members' name for a bundle: a change of this format changes every revision
     * and voids every approval given before (docs/people.md).
     */
    private static String hash(Map<String, byte[]> files) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new UncheckedIOException(new IOException("SHA-256 unavailable", e));
        }
        framed(sha, FORMAT.getBytes(StandardCharsets.US_ASCII));
        files.forEach((path, bytes) -> {
            framed(sha, path.getBytes(StandardCharsets.UTF_8));
            framed(sha, bytes);
        });
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    private static void framed(MessageDigest sha, byte[] field) {
        sha.update(ByteBuffer.allocate(Long.BYTES).putLong(field.length).array());
        sha.update(field);
    }
}
