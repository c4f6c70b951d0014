package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit key's file: kept outside the data directory, readable by its owner alone, at least 32
 * bytes, each refusal saying why; a final newline is not part of the key; what the log records of
 * it (its id) tells two keys apart and shows nothing of either.
 */
class AuditKeyTest {

    private static final String KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void aKeyFileInsideTheDataDirectoryIsRefused() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path inside = key(data.resolve("audit.key"), KEY, "rw-------");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuditKey.load(inside, data));
        assertTrue(e.getMessage().contains("is inside the data directory"), e.getMessage());
    }

    @Test
    void aKeyFileReachedThroughALinkIntoTheDataDirectoryIsRefusedToo() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        key(data.resolve("audit.key"), KEY, "rw-------");
        Path link = Files.createSymbolicLink(dir.resolve("audit.key"), data.resolve("audit.key"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuditKey.load(link, data));
        assertTrue(e.getMessage().contains("is inside the data directory"), e.getMessage());
    }

    @Test
    void aKeyFileItsGroupOrOthersMayReadIsRefusedSayingHowToFixIt() throws Exception {
        Path file = key(dir.resolve("audit.key"), KEY, "rw-r-----");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuditKey.load(file, dir.resolve("data")));
        assertTrue(e.getMessage().contains("may be read or written by its group or others"), e.getMessage());
        assertTrue(e.getMessage().contains("chmod 600 " + file), e.getMessage());
    }

    @Test
    void aKeyShorterThan32BytesIsRefused() throws Exception {
        Path file = key(dir.resolve("audit.key"), KEY.substring(0, 31) + "\n", "rw-------");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuditKey.load(file, dir.resolve("data")));
        assertTrue(e.getMessage().contains("is 31 bytes; it must be at least 32"), e.getMessage());
    }

    @Test
    void aFinalNewlineIsNotPartOfTheKey() throws Exception {
        AuditKey bare = AuditKey.load(key(dir.resolve("bare.key"), KEY, "rw-------"), dir.resolve("data"));
        AuditKey line = AuditKey.load(key(dir.resolve("line.key"), KEY + "\n", "r--------"), dir.resolve("data"));

        assertEquals(bare.id(), line.id());
        assertEquals(bare.mac(new byte[] {1}), line.mac(new byte[] {1}));
    }

    @Test
    void theIdRecordedInTheLogTellsKeysApartAndShowsNeither() {
        AuditKey a = AuditKey.of(KEY.getBytes(StandardCharsets.US_ASCII));
        AuditKey b = AuditKey.of(KEY.replace('0', '1').getBytes(StandardCharsets.US_ASCII));

        assertNotEquals(a.id(), b.id());
        assertFalse(KEY.contains(a.id()) || a.toString().contains(KEY.substring(0, 8)), a.toString());
    }

    private static Path key(Path file, String key, String mode) throws Exception {
        Files.writeString(file, key, StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }
}
