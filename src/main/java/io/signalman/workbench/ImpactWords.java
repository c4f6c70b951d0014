package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.signalman.replay.ChangeObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An impact in the analyst's words: every changed decision of a replay is attributed to
 * the rules or table rows whose contribution changed ({@link ChangedRules}: the changed ones among
 * those that fired before or after; else those that fired on one side only; else the pack's
 * changed reference data) and said in words ({@link ChangeWords}), then counted: "12 messages move
 * from the heavy to the light model; 30 keep their model with a lower score", with the first
 * {@link #EXAMPLES} of each by archive position and how many more there are. Thread-safe (the
 * replay's threads report here) and bounded: at most {@link #GROUPS} attributions of
 * {@link #EFFECTS} phrases each; the rest is counted as "other changes".
 */
final class ImpactWords implements ChangeObserver {

    static final int EXAMPLES = 3;
    static final int GROUPS = 30;
    static final int EFFECTS = 12;
    private static final String OTHER = "(other changes)";

    private final ChangedRules changed;
    /** Attribution key to its group, under this object's lock. */
    private final Map<String, Group> groups = new LinkedHashMap<>();

    private static final class Group {
        final String pack;
        final List<ChangedRules.Rule> because;
        final List<String> files;
        long count;
        long first = Long.MAX_VALUE;
        final Map<String, Effect> effects = new LinkedHashMap<>();

        Group(String pack, List<ChangedRules.Rule> because, List<String> files) {
            this.pack = pack;
            this.because = because;
            this.files = files;
        }
    }

    private static final class Effect {
        final ChangeWords.Phrase words;
        long count;
        final TreeMap<Long, Change> examples = new TreeMap<>();

        Effect(ChangeWords.Phrase words) {
            this.words = words;
        }
    }

    ImpactWords(ChangedRules changed) {
        this.changed = changed;
    }

    @Override
    public void changed(Change c) {
        String pack = c.record().pack();
        List<String> fired = new ArrayList<>(c.firedBefore());
        fired.addAll(c.firedAfter());
        List<ChangedRules.Rule> because = changed.among(pack, fired);
        List<String> files = List.of();
        if (because.isEmpty()) {
            List<String> oneSide = new ArrayList<>(c.firedBefore().stream().filter(r -> !c.firedAfter().contains(r)).toList());
            c.firedAfter().stream().filter(r -> !c.firedBefore().contains(r)).forEach(oneSide::add);
            because = oneSide.stream().distinct().map(r -> new ChangedRules.Rule(pack, r, null, 0, false)).toList();
        }
        if (because.isEmpty()) {
            files = changed.files(pack);
        }
        String key = pack + "\u0000" + String.join("\u0000", because.stream().map(ChangedRules.Rule::name).toList())
                + "\u0001" + String.join("\u0000", files);
        ChangeWords.Phrase words = ChangeWords.of(c.diff());
        synchronized (this) {
            Group g = groups.get(key);
            if (g == null) {
                g = groups.size() < GROUPS ? new Group(pack, because, files) : groups.computeIfAbsent(pack + "\u0002",
                        k -> new Group(pack, List.of(), List.of(OTHER)));
                groups.putIfAbsent(key, g);
            }
            g.count++;
            g.first = Math.min(g.first, c.position());
            Effect e = g.effects.get(words.many());
            if (e == null) {
                e = g.effects.size() < EFFECTS ? new Effect(words) : g.effects.computeIfAbsent(OTHER,
                        k -> new Effect(new ChangeWords.Phrase("change otherwise", "changes otherwise")));
                g.effects.putIfAbsent(words.many(), e);
            }
            e.count++;
            e.examples.put(c.position(), c);
            if (e.examples.size() > EXAMPLES) {
                e.examples.pollLastEntry();
            }
        }
    }

    /**
     * {@code [{"pack", "because": [{"rule", "file", "line", "table_row"}], "files", "count", "sentence",
     * "effects": [{"count", "words", "sentence", "examples": [...], "more"}]}]}, the group met first
     * in the archive first.
     */
    synchronized ArrayNode toJson() {
        ArrayNode out = Json.array();
        groups.values().stream().distinct().sorted(Comparator.comparingLong(g -> g.first)).forEach(g -> {
            ObjectNode n = out.addObject();
            n.put("pack", g.pack);
            ArrayNode because = n.putArray("because");
            g.because.forEach(r -> because.addObject().put("rule", r.name()).put("file", r.file()).put("line", r.line())
                    .put("table_row", r.tableRow()));
            g.files.forEach(n.putArray("files")::add);
            n.put("count", g.count);
            String[] noun = ChangeWords.noun(g.pack);
            List<String> sentences = new ArrayList<>();
            ArrayNode effects = n.putArray("effects");
            g.effects.values().stream().distinct().sorted(Comparator.comparingLong((Effect e) -> -e.count)).forEach(e -> {
                String sentence = e.count + " " + (e.count == 1 ? noun[1] + " " + e.words.one() : noun[0] + " " + e.words.many());
                sentences.add(sentence);
                ObjectNode en = effects.addObject().put("count", e.count).put("words", e.words.many()).put("sentence", sentence);
                ArrayNode ex = en.putArray("examples");
                e.examples.values().forEach(c -> ex.add(example(c)));
                en.put("more", e.count - e.examples.size());
            });
            n.put("sentence", String.join("; ", sentences));
        });
        return out;
    }

    private static ObjectNode example(Change c) {
        ObjectNode o = Json.object();
        o.put("record", c.where());
        o.put("decision_id", c.record().decisionId());
        o.put("pack", c.record().pack());
        o.set("input", c.record().input());
        o.set("state_before", c.record().stateBefore());
        ObjectNode diff = o.putObject("diff");
        c.diff().forEach((field, v) -> diff.putObject(field).<ObjectNode>set("old", v[0]).set("new", v[1]));
        return o;
    }
}
