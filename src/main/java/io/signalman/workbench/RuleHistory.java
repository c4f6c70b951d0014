package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.tables.DecisionTable;
import io.signalman.json.Unreadable;
import io.signalman.json.Json;
import io.signalman.rulelang.RuleFile;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * The timeline of one rule ({@code GET /v1/rules/{pack}/{rule}/history}): every activation that
 * changed it (added, changed or removed its text), newest first, with who activated it, who wrote
 * the draft, who approved it and their notes, the diff of that rule alone, and how often it
 * fired under the rules before and after (counted since this server started: {@link FireCounts}).
 * Each revision's text is read from the revisions the activation log keeps, through the
 * platform's one DRL reader ({@link RuleFile}); a decision table's rule is the DRL Drools makes
 * of its row. Blocking (file reads, parsing): a worker.
 */
final class RuleHistory {

    static final String PATH = "/v1/rules/:pack/:rule/history";

    /** One rule's text in one revision, or null when the revision has no such rule (or is not kept). */
    private record Text(String file, String text) {
    }

    private RuleHistory() {
    }

    static ObjectNode of(String pack, String rule, ActivationLog log, RuleBundle live, FireCounts fired) {
        Revisions revisions = log.revisions();
        Map<String, Map<String, Text>> cache = new HashMap<>();
        Text now = ruleText(live.files(), pack, rule);
        ArrayNode entries = Json.array();
        for (JsonNode a : log.history()) {
            String before = a.path("old_revision").asText();
            String after = a.path("new_revision").asText();
            Text was = read(revisions, cache, before, pack, rule);
            Text is = read(revisions, cache, after, pack, rule);
            if (Objects.equals(was, is)) {
                continue;
            }
            entries.insert(0, entry(a, was, is, pack, rule, fired));
        }
        if (now == null && entries.isEmpty()) {
            throw new WorkbenchException(404, "unknown_rule", "pack \"" + shorten(pack) + "\" has no rule \"" + shorten(rule)
                    + "\" now, and no activation here ever changed one of that name");
        }
        ObjectNode n = Json.object().put("pack", pack).put("rule", rule).put("live", now != null)
                .put("file", now == null ? null : now.file()).put("revision", live.revision());
        n.put("fired_live", fired.fired(live.revision(), pack, rule));
        n.put("counts_since", "server start");
        n.set("timeline", entries);
        return n;
    }

    private static ObjectNode entry(JsonNode a, Text was, Text is, String pack, String rule, FireCounts fired) {
        ObjectNode e = Json.object();
        e.put("activation", a.path("seq").asInt());
        e.put("kind", a.path("kind").asText());
        e.put("change", was == null ? "added" : is == null ? "removed" : "changed");
        e.put("at", a.path("at").asText());
        e.put("activated_by", a.path("who").asText());
        e.put("note", a.path("note").asText());
        e.put("draft", a.path("draft").asText(null));
        e.put("emergency", a.path("emergency").asBoolean(false));
        ArrayNode authors = e.putArray("authors");
        a.path("authors").forEach(authors::add);
        ArrayNode approvals = e.putArray("approvals");
        a.path("approvals").forEach(approvals::add);
        e.put("old_revision", a.path("old_revision").asText());
        e.put("new_revision", a.path("new_revision").asText());
        String file = is != null ? is.file() : was.file();
        e.put("file", file);
        e.put("diff", FileDiff.unified(file, was == null ? "" : was.text(), is == null ? "" : is.text()));
        e.put("fired_before", fired.fired(a.path("old_revision").asText(), pack, rule));
        e.put("fired_after", fired.fired(a.path("new_revision").asText(), pack, rule));
        e.put("decisions_before", fired.decisions(a.path("old_revision").asText(), pack));
        e.put("decisions_after", fired.decisions(a.path("new_revision").asText(), pack));
        return e;
    }

    private static Text read(Revisions revisions, Map<String, Map<String, Text>> cache, String revision, String pack, String rule) {
        if (!Revisions.wellFormed(revision) || !revisions.has(revision)) {
            return null;
        }
        return cache.computeIfAbsent(revision, r -> new HashMap<>()).computeIfAbsent(rule,
                k -> ruleText(revisions.read(revision), pack, rule));
    }

    /** The text of {@code rule} in {@code pack}'s files (a table's rule as its generated DRL), or null. */
    static Text ruleText(BundleFiles files, String pack, String rule) {
        for (String path : files.paths()) {
            if (!path.startsWith(pack + "/") || BundleFiles.isScenario(path)) {
                continue;
            }
            String text;
            if (path.endsWith(".drl")) {
                text = new String(files.bytes(path), StandardCharsets.UTF_8);
            } else if (DecisionTable.isTable(path)) {
                try {
                    text = DecisionTable.read(path, files.bytes(path)).drl();
                } catch (Unreadable e) {
                    continue;
                }
            } else {
                continue;
            }
            RuleFile f = RuleFile.read(text, null);
            if (!f.parsed()) {
                continue;
            }
            for (RuleDescr d : f.descr().getRules()) {
                if (rule.equals(d.getName())) {
                    int start = Math.max(0, d.getStartCharacter());
                    int end = d.getEndCharacter() < start ? text.length() : Math.min(text.length(), d.getEndCharacter() + 1);
                    return new Text(path, text.substring(start, end).stripTrailing() + "\n");
                }
            }
        }
        return null;
    }

    private static String shorten(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
