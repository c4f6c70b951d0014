package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The revision names one set of files: the attack of issue 38 (a README holding
 * {@code \0signals/zzz.drl\0<rule file>}, approved as docs and then split into a real rule file)
 * hashed alike under the first format, and must not under the framed one.
 */
class BundleFilesTest {

    private static final String RULE = "package signalman.signals.plugins;\n\nrule \"anything\"\nwhen\nthen\nend\n";

    @TempDir
    Path tmp;

    @Test
    void aReferenceFileOverTheSizeBoundIsRefusedBeforeItIsReadOrParsed() throws Exception {
        // Given the shipped rules with an org chart grown past the bound (a 100 MB one ended check on OutOfMemoryError)
        Path rules = io.signalman.TestBundles.copyOfRules(tmp);
        java.nio.file.Files.write(rules.resolve("broker/org-chart.json"), new byte[(int) BundleFiles.MAX_FILE_BYTES + 1]);

        // When the bundle is read, then it is refused naming the file and the bound
        BundleException e = assertThrows(BundleException.class, () -> BundleFiles.read(rules));
        assertEquals("broker/org-chart.json", e.errors().get(0).file());
        assertTrue(e.errors().get(0).message().contains(String.valueOf(BundleFiles.MAX_FILE_BYTES)), e.errors().toString());
    }

    @Test
    void aReadmeHoldingAFramedRuleFileAndTheRuleFileSplitOutOfItHaveDifferentRevisions() throws Exception {
        // Given two file sets that the first format (path \0 bytes \0 per file) could not tell apart
        Map<String, byte[]> docsOnly = files("signals/zz.md", "notes\0signals/zzz.drl\0" + RULE);
        Map<String, byte[]> split = files("signals/zz.md", "notes", "signals/zzz.drl", RULE);
        assertEquals(firstFormat(docsOnly), firstFormat(split), "the two sets are a collision of the first format");

        // When each is named by its revision
        String approved = BundleFiles.of(Path.of("rules"), docsOnly).revision();
        String activated = BundleFiles.of(Path.of("rules"), split).revision();

        // Then the names differ: an approval of the one is no approval of the other
        assertNotEquals(approved, activated);
    }

    @Test
    void bytesMovedBetweenAPathAndTheContentBeforeItChangeTheRevision() {
        // Given a file whose content ends as the next file's path begins
        Map<String, byte[]> a = files("a.md", "xb", "b.md", "y");
        Map<String, byte[]> b = files("a.md", "x", "bb.md", "y");

        assertNotEquals(BundleFiles.of(Path.of("rules"), a).revision(), BundleFiles.of(Path.of("rules"), b).revision());
    }

    @Test
    void theRevisionIsSha256OverTheFormatTagAndEachPathAndContentFramedByTheirLengths() throws Exception {
        // Given two files, given out of order
        Map<String, byte[]> given = new java.util.LinkedHashMap<>(files("signals/b.drl", RULE));
        given.put("README.md", "# rules\n".getBytes(StandardCharsets.UTF_8));

        // When the revision is computed
        String revision = BundleFiles.of(Path.of("rules"), given).revision();

        // Then it is the documented format (docs/people.md), files in sorted path order
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataOutputStream data = new DataOutputStream(out);
        for (String field : new String[] {"signalman-bundle-2", "README.md", "# rules\n", "signals/b.drl", RULE}) {
            byte[] b = field.getBytes(StandardCharsets.UTF_8);
            data.writeLong(b.length);
            data.write(b);
        }
        assertEquals("sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(out.toByteArray())), revision);
    }

    /** The first format, kept here only to show the collision it allowed. */
    private static String firstFormat(Map<String, byte[]> files) throws IOException, java.security.NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        new TreeMap<>(files).forEach((path, bytes) -> {
            sha.update(path.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(bytes);
            sha.update((byte) 0);
        });
        return HexFormat.of().formatHex(sha.digest());
    }

    private static Map<String, byte[]> files(String... pathsAndTexts) {
        Map<String, byte[]> m = new TreeMap<>();
        for (int i = 0; i < pathsAndTexts.length; i += 2) {
            m.put(pathsAndTexts[i], pathsAndTexts[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return m;
    }
}
