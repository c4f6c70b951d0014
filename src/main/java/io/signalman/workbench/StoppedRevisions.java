package io.signalman.workbench;

import io.signalman.control.AtomicFiles;
import io.signalman.engine.BundleFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The draft contents whose rules were stopped while they were checked or run: a check past its
 * deadline, a scenario or a Try stopped over its budget. Such content is never run again (a
 * draft that once stopped would be run at every opening, after every restart); the draft is
 * shown with why, and runs again once its content changes. Kept in
 * {@code <data>/workbench/stopped-revisions.txt}, one {@code revision at why} a line, the last
 * {@link #KEPT}.
 */
final class StoppedRevisions {

    static final int KEPT = 256;

    private final Path file;
    private final Map<String, String> stopped = new LinkedHashMap<>();

    StoppedRevisions(Path data) {
        this.file = data.resolve("workbench").resolve("stopped-revisions.txt");
        if (Files.isRegularFile(file)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] parts = line.split(" ", 3);
                    if (parts.length == 3) {
                        stopped.put(parts[0], parts[1] + " " + parts[2]);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }

    /** Why the content was stopped ({@code at why}), or null when it never was. */
    synchronized String why(BundleFiles files) {
        return stopped.get(files.revision());
    }

    /** Marks the content as stopped, for good: written before the answer that says so. */
    synchronized void mark(BundleFiles files, String why) {
        stopped.remove(files.revision());
        stopped.put(files.revision(), Instant.now() + " " + why.replace('\n', ' '));
        while (stopped.size() > KEPT) {
            stopped.remove(stopped.keySet().iterator().next());
        }
        StringBuilder out = new StringBuilder();
        stopped.forEach((r, w) -> out.append(r).append(' ').append(w).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, out.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
