package io.signalman.workbench;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which rules (and decision-table rows, which are rules) a draft changes against the live rules,
 * read from the line diff of each file: a rule changes when a changed line falls within it (from
 * its first line to the line before the next rule of its file), or when it is added or removed.
 * A change above a file's first rule (imports, a table's header rows) changes every rule of the
 * file. Files of a pack that hold no rule (its reference data) are named as changed files. This
 * is what an impact attributes a changed decision to.
 */
final class ChangedRules {

    /** A changed rule, where the analyst finds it: in the draft, or in the live rules when the draft removes it. */
    record Rule(String pack, String name, String file, int line, boolean tableRow) {
    }

    private final Map<String, Map<String, Rule>> rules = new HashMap<>();
    private final Map<String, List<String>> files = new HashMap<>();

    private ChangedRules() {
    }

    static ChangedRules of(RuleBundle live, RuleBundle draft) {
        ChangedRules out = new ChangedRules();
        for (CompiledPack pack : draft.packs().values()) {
            Optional<CompiledPack> before = live.pack(pack.name());
            out.compare(pack.name(), before.map(CompiledPack::rules).orElse(List.of()), pack.rules(), live, draft);
        }
        return out;
    }

    /** The changed rules of a pack among {@code names}, in the order given. */
    List<Rule> among(String pack, List<String> names) {
        Map<String, Rule> changed = rules.getOrDefault(pack, Map.of());
        return names.stream().distinct().map(changed::get).filter(r -> r != null).toList();
    }

    /** The pack's changed files that hold no rule (reference data). */
    List<String> files(String pack) {
        return files.getOrDefault(pack, List.of());
    }

    private void compare(String pack, List<RuleInfo> before, List<RuleInfo> after, RuleBundle live, RuleBundle draft) {
        Map<String, Rule> changed = rules.computeIfAbsent(pack, k -> new LinkedHashMap<>());
        Map<String, RuleInfo> was = new HashMap<>();
        before.forEach(r -> was.put(r.name(), r));
        Map<String, RuleInfo> now = new HashMap<>();
        after.forEach(r -> now.put(r.name(), r));
        after.stream().filter(r -> !was.containsKey(r.name())).forEach(r -> changed.put(r.name(), rule(r)));
        before.stream().filter(r -> !now.containsKey(r.name())).forEach(r -> changed.put(r.name(), rule(r)));
        List<String> paths = new ArrayList<>(draft.files().paths());
        live.files().paths().stream().filter(p -> !paths.contains(p)).forEach(paths::add);
        for (String path : paths) {
            byte[] a = live.files().bytes(path);
            byte[] b = draft.files().bytes(path);
            if (!path.startsWith(pack + "/") || Arrays.equals(a, b)) {
                continue;
            }
            List<RuleInfo> inOld = inFile(before, path);
            List<RuleInfo> inNew = inFile(after, path);
            if (inOld.isEmpty() && inNew.isEmpty()) {
                files.computeIfAbsent(pack, k -> new ArrayList<>()).add(path);
                continue;
            }
            for (AbstractDelta<String> d : DiffUtils.diff(lines(a), lines(b)).getDeltas()) {
                touched(inOld, d.getSource().getPosition(), d.getSource().size()).forEach(r -> changed.putIfAbsent(r.name(),
                        rule(now.getOrDefault(r.name(), r))));
                touched(inNew, d.getTarget().getPosition(), d.getTarget().size()).forEach(r -> changed.putIfAbsent(r.name(),
                        rule(r)));
            }
        }
    }

    /** The rules of a file (sorted by line) whose lines meet the 0-based lines {@code [at, at + size)}. */
    private static List<RuleInfo> touched(List<RuleInfo> rules, int at, int size) {
        int first = at + 1;
        int last = at + Math.max(size, 1);
        if (!rules.isEmpty() && first < rules.get(0).line()) {
            return rules; // above the first rule: the file's declarations or a table's header
        }
        List<RuleInfo> out = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            int start = rules.get(i).line();
            int end = i + 1 < rules.size() ? rules.get(i + 1).line() - 1 : Integer.MAX_VALUE;
            if (first <= end && last >= start) {
                out.add(rules.get(i));
            }
        }
        return out;
    }

    private static List<RuleInfo> inFile(List<RuleInfo> rules, String path) {
        return rules.stream().filter(r -> r.file().equals(path)).sorted(Comparator.comparingInt(RuleInfo::line)).toList();
    }

    private static Rule rule(RuleInfo r) {
        return new Rule(r.pack(), r.name(), r.file(), r.line(), !r.file().endsWith(".drl"));
    }

    private static List<String> lines(byte[] b) {
        return b == null ? List.of() : new String(b, StandardCharsets.UTF_8).lines().toList();
    }
}
