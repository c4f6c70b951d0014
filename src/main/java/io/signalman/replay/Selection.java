package io.signalman.replay;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which records of an archive to replay: those whose {@code at} is in {@code [since, until)}, of
 * the given packs, and in the sample. The sample is chosen by a hash of the {@code decision_id},
 * so the same rate selects the same records on every run and every machine.
 *
 * @param since inclusive, or null
 * @param until exclusive, or null
 * @param packs the packs to replay; empty for all
 * @param sample the share of records to replay, in (0, 1]
 * @param arm the records of one arm of a live trial ({@code live}: those the live rules made,
 *            outside any trial included; {@code candidate}: those a trial's candidate made), or
 *            null for every record. Replaying each arm with its own rules gives back every
 *            decision of a log that spans a trial exactly.
 */
public record Selection(Instant since, Instant until, Set<String> packs, double sample, String arm) implements Serializable {

    public static final Selection ALL = new Selection(null, null, Set.of(), 1.0);

    /** The arms {@code --arm} takes. */
    public static final Set<String> ARMS = Set.of("live", "candidate");

    /** Why a record was not selected. */
    public enum Skip { NONE, TIME, PACK, SAMPLE, ARM }

    /** Records of every arm. */
    public Selection(Instant since, Instant until, Set<String> packs, double sample) {
        this(since, until, packs, sample, null);
    }

    public Selection {
        if (arm != null && !ARMS.contains(arm)) {
            throw new IllegalArgumentException("--arm must be live or candidate, not \"" + arm + "\"");
        }
        packs = Set.copyOf(new TreeSet<>(packs));
        if (!(sample > 0 && sample <= 1)) {
            throw new IllegalArgumentException("--sample must be a rate with 0 < RATE <= 1, not " + sample);
        }
        if (since != null && until != null && !since.isBefore(until)) {
            throw new IllegalArgumentException("--since " + since + " is not before --until " + until);
        }
    }

    /**
     * An ISO-8601 instant ({@code 2026-11-17T08:00:00Z}) or date ({@code 2026-11-17}, its midnight
     * UTC): {@code --since 2026-11-17 --until 2026-11-18} is that whole day.
     */
    public static Instant instant(String flag, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            try {
                return LocalDate.parse(text.trim()).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException("--" + flag + " must be an ISO-8601 instant (2026-11-17T08:00:00Z) or date"
                        + " (2026-11-17), not \"" + text + "\"");
            }
        }
    }

    public Skip test(String pack, String at, String decisionId) {
        return test(pack, at, decisionId, "live");
    }

    /** {@code recordArm}: the arm the record says made it ({@code DecisionRecord.arm()}). */
    public Skip test(String pack, String at, String decisionId, String recordArm) {
        if (!packs.isEmpty() && !packs.contains(pack)) {
            return Skip.PACK;
        }
        if (arm != null && !arm.equals(recordArm)) {
            return Skip.ARM;
        }
        if (since != null || until != null) {
            Instant t;
            try {
                t = at == null ? null : Instant.parse(at);
            } catch (DateTimeParseException e) {
                t = null;
            }
            if (t == null || since != null && t.isBefore(since) || until != null && !t.isBefore(until)) {
                return Skip.TIME;
            }
        }
        if (sample < 1 && Long.compareUnsigned(hash(decisionId), (long) (sample * 0x1p63) << 1) >= 0) {
            return Skip.SAMPLE;
        }
        return Skip.NONE;
    }

    /** 64-bit FNV-1a of the id's UTF-8 bytes, then a murmur3 finaliser so that nearby ids spread. */
    static long hash(String id) {
        long h = 0xcbf29ce484222325L;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /** The selection in words, for the report. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (since != null) {
            parts.add("since " + since);
        }
        if (until != null) {
            parts.add("until " + until);
        }
        if (!packs.isEmpty()) {
            parts.add("packs " + String.join(", ", new TreeSet<>(packs)));
        }
        if (sample < 1) {
            parts.add("a sample of " + sample + " by decision_id");
        }
        if (arm != null) {
            parts.add("the " + arm + " arm of live trials");
        }
        return parts.isEmpty() ? "every record" : String.join("; ", parts);
    }
}
