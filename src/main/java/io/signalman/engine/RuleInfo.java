package io.signalman.engine;

/**
 * What the platform knows about one rule, read from its DRL source: where it is, how it is
 * ordered, and the analyst's own words for why it fires.
 *
 * @param index      position in the pack's load order (sorted file path, then position in file)
 * @param phaseIndex index of the rule's agenda group in the pack's phase list
 */
public record RuleInfo(
        String pack,
        String name,
        String file,
        int line,
        int column,
        int salience,
        String agendaGroup,
        String activationGroup,
        String reason,
        int index,
        int phaseIndex,
        Phase.Kind kind) {

    public boolean decides() {
        return kind == Phase.Kind.FIRST_MATCH;
    }
}
