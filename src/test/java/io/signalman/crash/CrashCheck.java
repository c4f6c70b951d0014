package io.signalman.crash;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordLine;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * What the crash harness checks after each restart, against the answers its clients got before
 * the kill: every acknowledged decision is in the decision log, whose every line is whole and
 * checks; every FSM instance and conversation is where its last acknowledged answer left it
 * (unless a request on it went unanswered); every acknowledged idempotency answer is given again,
 * byte for byte; and an answer to a request that was in flight at the kill, if it survived, has
 * its change (its decision in the log, its state in place): no answer without its change.
 */
final class CrashCheck {

    private static final byte[] ID = "{\"decision_id\":\"".getBytes(StandardCharsets.US_ASCII);

    /** Losses by kind, each with a line saying what and where. */
    static final class Losses {
        final List<String> lines = new ArrayList<>();
        final Map<String, Integer> byKind = new HashMap<>();

        void add(String kind, String line) {
            byKind.merge(kind, 1, Integer::sum);
            if (lines.size() < 50) {
                lines.add(kind + ": " + line);
            }
        }

        int total() {
            return byKind.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    private CrashCheck() {
    }

    static Losses check(Path data, CrashHttp http, List<Op> sent, List<Entity> entities) throws IOException, InterruptedException {
        Losses losses = new Losses();
        Set<String> logged = logged(data.resolve("decisions"), losses);
        for (Op op : sent) {
            String id = op.acknowledged() ? op.decisionId(CrashLoad.parse(op.answer)) : null;
            if (id != null && !logged.contains(id)) {
                losses.add(op.what(), "acknowledged decision " + id + " (" + op.path + ") is not in the log");
            }
        }
        // The state, read before any retry below can move it.
        Map<Entity, HttpResponse<String>> now = new HashMap<>();
        for (Entity e : entities) {
            HttpResponse<String> r = http.get(e.path());
            now.put(e, r);
            if (!e.uncertain && !e.agrees(r.statusCode(), CrashLoad.parse(r.body()))) {
                losses.add(e.kind == Entity.Kind.FSM ? "transition" : "turn", e.id + ": its last acknowledged answer left "
                        + (e.exists ? e.expected() : "it absent") + ", but it is " + r.statusCode() + " " + r.body());
            }
        }
        for (Op op : sent) {
            if (!op.keyed || op.answered() && !op.acknowledged()) {
                continue;
            }
            HttpResponse<String> again = http.send(op);
            boolean replayed = "true".equals(again.headers().firstValue("idempotent-replayed").orElse(""));
            if (op.acknowledged()) {
                if (!replayed || again.statusCode() != op.status || !again.body().equals(op.answer)) {
                    losses.add("answer", op.path + " key " + (op.header != null ? op.header : "(message id)") + ": acknowledged "
                            + op.status + ", retried " + again.statusCode() + (replayed ? " replayed" : " run again") + ": "
                            + shorten(op.answer) + " / " + shorten(again.body()));
                }
            } else if (replayed) {
                answeredWithoutChange(op, again, logged, now, losses);
            }
        }
        for (Entity e : entities) {
            HttpResponse<String> r = http.get(e.path());
            e.read(r.statusCode(), CrashLoad.parse(r.body()));
        }
        return losses;
    }

    /** A request unanswered at the kill whose answer survived: its change must have survived with it. */
    private static void answeredWithoutChange(Op op, HttpResponse<String> again, Set<String> logged,
                                              Map<Entity, HttpResponse<String>> now, Losses losses) {
        JsonNode a = CrashLoad.parse(again.body());
        String id = op.decisionId(a);
        if (id != null && !logged.contains(id)) {
            losses.add("answer without its change", op.path + ": the stored answer names decision " + id
                    + ", which is not in the log");
        }
        if (op.entity == null || again.statusCode() >= 300) {
            return;
        }
        JsonNode state = CrashLoad.parse(now.get(op.entity).body());
        boolean there = switch (op.kind) {
            case FSM_ACTION -> a.path("to").asText().equals(state.path("current_state").asText());
            case TURN, USER_INPUT -> a.path("handoff_count").asInt() == state.path("handoff_count").asInt();
            default -> now.get(op.entity).statusCode() == 200;
        };
        if (!there) {
            losses.add("answer without its change", op.path + ": the stored answer says " + again.body() + ", but it is "
                    + now.get(op.entity).body());
        }
    }

    private static String shorten(String s) {
        return s == null || s.length() <= 160 ? s : s.substring(0, 160) + "...";
    }

    /** The decision ids of every log file (plain and compressed); a line that is not whole and sealed is a loss. */
    static Set<String> logged(Path dir, Losses losses) throws IOException {
        Set<String> ids = new HashSet<>();
        if (!Files.isDirectory(dir)) {
            return ids;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".jsonl") || p.toString().endsWith(".jsonl.gz")).sorted().toList();
        }
        for (Path f : files) {
            try (InputStream raw = Files.newInputStream(f);
                 LineReader r = new LineReader(f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw)) {
                while (r.next()) {
                    if (!r.terminated() || RecordLine.check(r.bytes(), 0, r.length()) != RecordLine.Check.SEALED
                            || !startsWith(r.bytes(), r.length())) {
                        losses.add("log line", f.getFileName() + " line " + r.number() + " (byte " + r.offset()
                                + ") is not a whole, sealed record");
                        continue;
                    }
                    int end = ID.length;
                    while (end < r.length() && r.bytes()[end] != '"') {
                        end++;
                    }
                    ids.add(new String(r.bytes(), ID.length, end - ID.length, StandardCharsets.US_ASCII));
                }
            }
        }
        return ids;
    }

    private static boolean startsWith(byte[] b, int len) {
        if (len < ID.length) {
            return false;
        }
        for (int i = 0; i < ID.length; i++) {
            if (b[i] != ID[i]) {
                return false;
            }
        }
        return true;
    }
}
