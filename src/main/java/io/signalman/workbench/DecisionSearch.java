package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Live decisions from the log, not only those that arrive while the page watches: the newest
 * decisions (by pack, rule, any text, or one {@code decision_id}) read from the decision log's
 * files, newest file first. Memory is bounded whatever the log's size: lines are streamed and only
 * the last {@code limit} matches of a file are kept; the search reads at most
 * {@link #MAX_BYTES} of the log and says so when it stopped there.
 */
final class DecisionSearch {

    static final int MAX_LIMIT = 200;
    static final long MAX_BYTES = 256L * 1024 * 1024;
    /** The decision log writes each record on one line; a longer one is not a record it wrote. */
    private static final int MAX_LINE = 1024 * 1024;

    private final Path log;

    DecisionSearch(Path log) {
        this.log = log;
    }

    /** Blocking file I/O: a worker. {@code id} is matched exactly; the others as in the live tail. */
    ObjectNode find(String id, String pack, String rule, String text, int limit) {
        int max = Math.max(1, Math.min(MAX_LIMIT, limit));
        String idNeedle = id == null ? null : "\"" + id + "\"";
        String lowerText = text == null ? null : text.toLowerCase(Locale.ROOT);
        String lowerRule = rule == null ? null : rule.toLowerCase(Locale.ROOT);
        List<ObjectNode> found = new ArrayList<>();
        long read = 0;
        boolean cut = false;
        List<Archive.ArchiveFile> files = files();
        for (int i = files.size() - 1; i >= 0 && found.size() < max; i--) {
            ArrayDeque<ObjectNode> newest = new ArrayDeque<>();
            try (InputStream in = files.get(i).open();
                 BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    read += line.length() + 1;
                    if (line.length() > MAX_LINE || idNeedle != null && !line.contains(idNeedle)) {
                        continue;
                    }
                    DecisionRecord rec = parse(line);
                    if (rec == null || id != null && !id.equals(rec.decisionId())
                            || !DecisionTail.matches(rec, pack, lowerRule, lowerText)) {
                        continue;
                    }
                    newest.addLast(rec.toJson());
                    if (newest.size() > max - found.size()) {
                        newest.removeFirst();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the decision log file " + files.get(i).path(), e);
            }
            List<ObjectNode> inFile = new ArrayList<>(newest);
            Collections.reverse(inFile);
            found.addAll(inFile);
            if (read > MAX_BYTES) {
                cut = i > 0;
                break;
            }
        }
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("decisions");
        found.forEach(list::add);
        out.put("searched_bytes", read);
        out.put("whole_log", !cut);
        return out;
    }

    private List<Archive.ArchiveFile> files() {
        if (!Files.isDirectory(log)) {
            return List.of();
        }
        try {
            return Archive.read(List.of(log)).files();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the decision log " + log, e);
        }
    }

    private static DecisionRecord parse(String line) {
        try {
            return DecisionRecord.fromJson(Json.parse(line));
        } catch (io.signalman.json.InputException e) {
            return null; // a torn last line, or one the log did not write
        }
    }
}
