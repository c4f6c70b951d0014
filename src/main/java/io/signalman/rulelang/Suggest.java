package io.signalman.rulelang;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** "Did you mean ...": the nearest known name to a misspelt one, by edit distance. */
public final class Suggest {

    private Suggest() {
    }

    /** The known name nearest to {@code name}, if it is within a third of its length (at least 1, at most 3 edits). */
    public static Optional<String> nearest(String name, Collection<String> known) {
        int limit = Math.max(1, Math.min(3, name.length() / 3));
        return known.stream().min(Comparator.comparingInt((String k) -> distance(k.toLowerCase(), name.toLowerCase())))
                .filter(k -> distance(k.toLowerCase(), name.toLowerCase()) <= limit);
    }

    /** {@code ; did you mean "x"?} or the empty string. */
    public static String didYouMean(String name, Collection<String> known) {
        return nearest(name, known).map(k -> "; did you mean \"" + k + "\"?").orElse("");
    }

    /**
     * What follows "X has no field y": {@code ; did you mean "z"? Its fields: a, b} or
     * {@code . Its fields: a, b}, with {@code label} naming the list.
     */
    public static String hint(String name, Collection<String> known, String label) {
        String list = known.isEmpty() ? "" : " " + label + ": " + String.join(", ", known);
        return nearest(name, known).map(k -> "; did you mean \"" + k + "\"?" + list).orElse(list.isEmpty() ? "" : "." + list);
    }

    /** Levenshtein distance (Apache Commons Text's): small names, small cost. */
    public static int distance(String a, String b) {
        return LevenshteinDistance.getDefaultInstance().apply(a, b);
    }
}
