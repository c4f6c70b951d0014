package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.cluster.Peers;
import io.signalman.control.FilesCodec;
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
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * The workbench sees the cluster's traffic, not only this node's: every member answers the
 * others' questions about its own decision log over the event bus ({@link Peers}). <em>Live
 * decisions</em> searches every member's log and merges the newest; an impact replays the newest
 * part of every member's log (at most {@link #MAX_EXPORT_BYTES} of each) beside this node's. Both
 * say which members answered. A member that does not answer within {@link #ASK_MILLIS} is named,
 * never waited on longer.
 */
final class ClusterTraffic {

    static final long ASK_MILLIS = 5_000;
    /** What one member sends of its log for an impact: its newest records, up to this many bytes. */
    static final int MAX_EXPORT_BYTES = 8 * 1024 * 1024;
    private static final String SEARCH = "decisions";
    private static final String RECENT = "recent";

    private final Peers peers;
    private final DecisionSearch search;
    private final Path decisions;

    ClusterTraffic(Peers peers, DecisionSearch search, Path decisions) {
        this.peers = peers;
        this.search = search;
        this.decisions = decisions;
        peers.answer(SEARCH, q -> {
            JsonNode r = FilesCodec.parse(q);
            return Json.write(search.find(text(r, "decision_id"), text(r, "pack"), text(r, "rule"), text(r, "q"),
                    r.path("limit").asInt(DecisionSearch.MAX_LIMIT)));
        });
        peers.answer(RECENT, q -> recent());
    }

    /** {@link DecisionSearch#find} over every member's log: the newest {@code limit}, with {@code members} saying who answered. */
    ObjectNode find(String id, String pack, String rule, String text, int limit) {
        ObjectNode mine = search.find(id, pack, rule, text, limit);
        ObjectNode q = Json.object().put("decision_id", id).put("pack", pack).put("rule", rule).put("q", text).put("limit", limit);
        List<JsonNode> all = new ArrayList<>();
        mine.path("decisions").forEach(all::add);
        ArrayNode members = Json.array();
        members.addObject().put("node", peers.self()).put("answered", true).put("decisions", mine.path("decisions").size());
        boolean whole = mine.path("whole_log").asBoolean(true);
        for (Peers.Reply r : peers.ask(SEARCH, Json.write(q), ASK_MILLIS)) {
            ObjectNode m = members.addObject().put("node", r.node()).put("answered", r.answered());
            if (r.answered()) {
                JsonNode theirs = FilesCodec.parse(r.body());
                theirs.path("decisions").forEach(all::add);
                m.put("decisions", theirs.path("decisions").size());
                whole &= theirs.path("whole_log").asBoolean(true);
            } else {
                m.put("error", r.error());
            }
        }
        all.sort(Comparator.comparing((JsonNode d) -> d.path("at").asText()).reversed());
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("decisions");
        all.stream().limit(Math.max(1, Math.min(DecisionSearch.MAX_LIMIT, limit))).forEach(list::add);
        out.put("whole_log", whole);
        out.set("members", members);
        return out;
    }

    /** The other members' newest records, as one file each under {@code dir}; and who answered (this node first). */
    record Fetched(List<Path> files, ArrayNode members) {
    }

    Fetched fetch(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        ArrayNode members = Json.array();
        members.addObject().put("node", peers.self()).put("answered", true).put("whole_log", true);
        int i = 0;
        for (Peers.Reply r : peers.ask(RECENT, "", ASK_MILLIS * 4)) {
            ObjectNode m = members.addObject().put("node", r.node()).put("answered", r.answered());
            if (!r.answered()) {
                m.put("error", r.error());
                continue;
            }
            int nl = r.body().indexOf('\n');
            m.put("whole_log", "whole".equals(r.body().substring(0, nl)));
            Path f = dir.resolve("member-" + i++).resolve("decisions.jsonl");
            Files.createDirectories(f.getParent());
            Files.writeString(f, r.body().substring(nl + 1));
            files.add(f);
        }
        return new Fetched(files, members);
    }

    /** This member's newest records, whole lines, at most {@link #MAX_EXPORT_BYTES}: "whole" or "cut", a line, then the records. */
    private String recent() {
        if (!Files.isDirectory(decisions)) {
            return "whole\n";
        }
        try {
            List<Archive.ArchiveFile> files = Archive.read(List.of(decisions)).files();
            Deque<String> kept = new ArrayDeque<>();
            long bytes = 0;
            boolean cut = false;
            for (int f = files.size() - 1; f >= 0 && !cut; f--) {
                Deque<String> inFile = new ArrayDeque<>();
                try (InputStream in = files.get(f).open();
                     BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        inFile.addLast(line);
                        bytes += line.length() + 1;
                        while (bytes > MAX_EXPORT_BYTES && !inFile.isEmpty()) {
                            bytes -= inFile.removeFirst().length() + 1;
                            cut = true;
                        }
                    }
                }
                while (!inFile.isEmpty()) {
                    kept.addFirst(inFile.removeLast());
                }
                cut |= bytes >= MAX_EXPORT_BYTES && f > 0;
            }
            StringBuilder b = new StringBuilder(cut ? "cut\n" : "whole\n");
            kept.forEach(l -> b.append(l).append('\n'));
            return b.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the decision log " + decisions, e);
        }
    }

    private static String text(JsonNode r, String field) {
        JsonNode v = r.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
