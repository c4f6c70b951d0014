package io.signalman.engine;

import io.signalman.rulelang.RuleFile;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A pack's files as its reference data is loaded from them: the bytes by bundle-relative path,
 * and each DRL file's reading. A build hands on the readings the rule checker already made, so a
 * rule file is parsed once per reload, whoever needs its rules (the checker, the dispatch index,
 * the handoff signal rules); a file nobody read yet (reference data swapped under compiled rules
 * for a replay) is read when first asked for.
 */
public final class PackFiles {

    private final Map<String, byte[]> bytes;
    private final Map<String, RuleFile> read;

    private PackFiles(Map<String, byte[]> bytes, Map<String, RuleFile> read) {
        this.bytes = Collections.unmodifiableMap(new LinkedHashMap<>(bytes));
        this.read = new HashMap<>(read);
    }

    /** Files whose DRL nobody has read yet. */
    public static PackFiles of(Map<String, byte[]> bytes) {
        return new PackFiles(bytes, Map.of());
    }

    /** Files with the readings already made of (some of) their DRL files. */
    static PackFiles of(Map<String, byte[]> bytes, Map<String, RuleFile> read) {
        return new PackFiles(bytes, read);
    }

    /** Every file, by bundle-relative path, in sorted order. */
    public Map<String, byte[]> bytes() {
        return bytes;
    }

    /** The file at {@code path}, or null. */
    public byte[] get(String path) {
        return bytes.get(path);
    }

    /** The paths of the DRL files, in sorted order. */
    public Set<String> drlPaths() {
        Set<String> out = new java.util.LinkedHashSet<>();
        bytes.keySet().stream().filter(p -> p.endsWith(".drl")).forEach(out::add);
        return out;
    }

    /** The reading of a DRL file: the build's when it made one, else made now (without checking). */
    public synchronized RuleFile rules(String path) {
        RuleFile r = read.get(path);
        if (r == null) {
            byte[] b = bytes.get(path);
            if (b == null) {
                throw new IllegalArgumentException("no file " + path);
            }
            r = RuleFile.read(new String(b, StandardCharsets.UTF_8), null);
            read.put(path, r);
        }
        return r;
    }
}
