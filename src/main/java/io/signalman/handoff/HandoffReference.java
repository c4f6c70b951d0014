package io.signalman.handoff;

import io.signalman.engine.PackFiles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The handoff pack's reference data: every crew of {@code rules/handoff/*.json} by name, and the
 * signal rules read from the pack's DRL. Building it is the crew check: signal format,
 * unknown crews, agents and targets, duplicate signals, plus everything {@link CrewReader} checks.
 */
public record HandoffReference(Map<String, Crew> crews, List<SignalRule> signalRules) {

    public HandoffReference {
        crews = Map.copyOf(crews);
        signalRules = List.copyOf(signalRules);
    }

    public Optional<Crew> crew(String name) {
        return Optional.ofNullable(crews.get(name));
    }

    /** The termination signals of one agent of one crew, in file order. */
    public List<String> terminationSignals(String crew, String agent) {
        return signalRules.stream().filter(r -> r.terminates() && r.crew().equals(crew) && r.agent().equals(agent))
                .map(SignalRule::signal).toList();
    }

    /** The routing signals of one agent of one crew, in file order. */
    public List<SignalRule> routingRules(String crew, String agent) {
        return signalRules.stream().filter(r -> !r.terminates() && r.crew().equals(crew) && r.agent().equals(agent))
                .toList();
    }

    static HandoffReference load(PackFiles files) throws BundleException {
        List<BundleError> errors = new ArrayList<>();
        Map<String, Crew> crews = new LinkedHashMap<>();
        Map<String, String> crewFiles = new HashMap<>();
        for (Map.Entry<String, byte[]> f : files.bytes().entrySet()) {
            if (!f.getKey().endsWith(".json")) {
                continue;
            }
            try {
                Crew c = CrewReader.read(f.getKey(), f.getValue());
                String other = crewFiles.putIfAbsent(c.name(), f.getKey());
                if (other != null) {
                    errors.add(new BundleError(f.getKey(), 1, 1, "crew \"" + c.name() + "\" is also defined in " + other));
                } else {
                    crews.put(c.name(), c);
                }
            } catch (BundleException e) {
                errors.addAll(e.errors());
            }
        }
        List<SignalRule> rules = SignalRules.read(files, errors);
        if (errors.isEmpty()) {
            checkSignals(rules, errors);
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return new HandoffReference(crews, rules);
    }

    /** Signal format and duplicates: what the DRL alone can get wrong. */
    private static void checkSignals(List<SignalRule> rules, List<BundleError> errors) {
        Map<String, SignalRule> seen = new HashMap<>();
        for (SignalRule r : rules) {
            if (!SignalMatcher.wellFormed(r.signal())) {
                errors.add(new BundleError(r.file(), r.signalLine(), 1, "signal rule \"" + r.rule() + "\": signal \""
                        + r.signal() + "\" must be written [NAME]: one pair of square brackets around a name"));
            }
            String key = r.crew() + "\u0000" + r.agent() + "\u0000" + SignalMatcher.canonical(r.signal());
            SignalRule first = seen.putIfAbsent(key, r);
            if (first != null) {
                errors.add(new BundleError(r.file(), r.signalLine(), 1, "signal rule \"" + r.rule() + "\": agent \""
                        + r.agent() + "\" of crew \"" + r.crew() + "\" already listens to " + first.signal() + " in \""
                        + first.rule() + "\" (" + first.file() + ":" + first.signalLine()
                        + "); the same signal cannot mean two things"));
            }
        }
    }

    /**
     * Signal rules against the crews: unknown crews, agents and targets. Part of the bundle check
     * (lint), not of loading, so that an archive replayed under other crew data still replays: a
     * target that data lacks takes the seed's fallback (section 8) instead of refusing the replay.
     */
    public List<BundleError> crossCheck() {
        List<BundleError> errors = new ArrayList<>();
        for (SignalRule r : signalRules) {
            String where = "signal rule \"" + r.rule() + "\"";
            Crew crew = crews.get(r.crew());
            if (crew == null) {
                errors.add(new BundleError(r.file(), r.line(), 1, where + " is for crew \"" + r.crew()
                        + "\", which no crew file defines; the crews are " + new java.util.TreeSet<>(crews.keySet())));
                continue;
            }
            if (crew.agent(r.agent()).isEmpty()) {
                errors.add(new BundleError(r.file(), r.line(), 1, where + " listens to agent \"" + r.agent()
                        + "\", which is no agent of crew \"" + r.crew() + "\""));
            }
            if (r.target() != null && !crew.knows(r.target())) {
                errors.add(new BundleError(r.file(), r.targetLine(), 1, where + " routes to \"" + r.target()
                        + "\", which is no agent or parallel group of crew \"" + r.crew() + "\""));
            }
        }
        return errors;
    }
}
