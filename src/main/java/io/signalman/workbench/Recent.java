package io.signalman.workbench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The last few results of a costly step on a revision of the rules (a compile, a draft's whole
 * check), so that showing the same revision again does not redo it; the least recently used is
 * dropped. Made outside any lock: two threads asking for a new revision at once may both make it.
 */
final class Recent<V> {

    private final Map<String, V> byRevision;

    Recent(int kept) {
        byRevision = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > kept;
            }
        });
    }

    /** The result for {@code revision}: the one kept, or the one {@code make} makes, then kept. */
    V get(String revision, Supplier<V> make) {
        V known = byRevision.get(revision);
        if (known != null) {
            return known;
        }
        V made = make.get();
        byRevision.put(revision, made);
        return made;
    }
}
