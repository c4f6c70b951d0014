package io.signalman.engine;

import io.signalman.rulelang.Vocabulary;
import java.util.List;
import java.util.Map;

/**
 * What the engine needs to know about a pack to compile and evaluate it. Adding a pack means a
 * rules folder, its facts, one of these, its typed {@code decide} and its invariants; the engine
 * itself does not change.
 */
public interface PackDefinition {

    /** The pack's name, activation group and agenda groups, declared once. */
    PackShape shape();

    /** The folder under {@code rules/} and the {@code pack} field of decisions. */
    default String name() {
        return shape().name();
    }

    /**
     * What the pack's rules may name: its fact classes and its {@code decide} API. The rule
     * language (rules/README.md) refuses anything else at check and reload.
     */
    Vocabulary vocabulary();

    /** Agenda groups in firing order. */
    default List<Phase> phases() {
        return shape().phases();
    }

    /** The activation group shared by every first-match rule (written in the DRL). */
    default String firstMatchGroup() {
        return shape().firstMatchGroup();
    }

    /**
     * Parses the pack's reference data. Runs on a worker thread.
     *
     * @param files the files under the pack's folder, keyed by bundle-relative path, sorted, with
     *              the readings of its DRL files the build already made
     * @throws BundleException with file and line for malformed or inconsistent data
     */
    ReferenceData loadReference(PackFiles files) throws BundleException;

    /** A fresh collector for one session, given the reference data that session sees. */
    Collector newCollector(ReferenceData reference);

    /**
     * Whether a bundle file belongs to this pack (its DRL is compiled into the pack, its data
     * passed to {@link #loadReference}). By default, everything under the pack's folder; a pack
     * may also take files from another folder (the signals pack takes the strategy-tier routes
     * that FSM machines keep beside them in {@code fsm/}).
     */
    default boolean includes(String path) {
        return path.startsWith(name() + "/");
    }

    /**
     * Whether two deciding rules of one phase can match the same facts, so that equal salience
     * makes a tie worth a warning. By default every pair can; the FSM pack narrows it to rules
     * for the same machine, state and action.
     */
    default boolean mayCompete(ParsedRule a, ParsedRule b) {
        return true;
    }

    /**
     * Fact types present in every evaluation of the pack (the input's facts and the reference
     * facts). A deciding rule whose patterns are all unconstrained patterns of these types matches
     * everything, so every rule tried after it can never fire: lint reports them as shadowed.
     */
    default java.util.Set<String> alwaysPresent() {
        return java.util.Set.of();
    }

    /** Pack-specific lint (for instance names the reference data does not know). */
    default List<BundleError> lint(List<RuleInfo> rules, ReferenceData reference) {
        return List.of();
    }

    /** Pack-specific warnings: reported by check and in the reload report, they do not refuse the bundle. */
    default List<BundleError> lintWarnings(List<RuleInfo> rules, ReferenceData reference) {
        return List.of();
    }

    /**
     * Runs once the rules compiled: derives what the pack needs from its rules (an FSM's
     * transition table) and refuses what is wrong with file and line. Returns the reference
     * data the pack's sessions and code will see.
     */
    default ReferenceData analyze(List<ParsedRule> rules, ReferenceData reference) throws BundleException {
        return reference;
    }
}
