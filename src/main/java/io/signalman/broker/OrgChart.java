package io.signalman.broker;

import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.ReferenceData;
import io.signalman.json.Located;
import io.signalman.rulelang.RuleVocabulary;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The organisation as the broker sees it: agent cards by id, each agent's manager, and the
 * registry of trading agents. Immutable; inserted once into every broker session as a fact so
 * rules can call {@code $org.managerOf(...)}.
 */
@RuleVocabulary
public final class OrgChart {

    /** The file under {@code rules/broker/} this chart is read from. */
    public static final String FILE = "broker/org-chart.json";
    /** Who receives what would otherwise have no manager (manager(a) of an unknown agent). */
    public static final String TOP = "openclaw";
    public static final String TRADING_ROLE = "trading";

    private final Map<String, AgentCard> cards;
    private final List<String> tradingAgents;

    public OrgChart(Collection<AgentCard> cards) {
        Map<String, AgentCard> byId = new LinkedHashMap<>();
        cards.forEach(c -> byId.put(c.id(), c));
        this.cards = Map.copyOf(byId);
        this.tradingAgents = byId.values().stream().filter(c -> TRADING_ROLE.equals(c.role())).map(AgentCard::id).toList();
    }

    /** The {@code reports_to} of the agent's card, or openclaw when unknown or reporting to no one. */
    public String managerOf(String agent) {
        AgentCard card = cards.get(agent);
        return card == null || card.reportsTo() == null ? TOP : card.reportsTo();
    }

    /** Every agent whose card has role {@code trading}, in the order of the file. */
    public List<String> getTradingAgents() {
        return tradingAgents;
    }

    public Optional<AgentCard> card(String id) {
        return Optional.ofNullable(cards.get(id));
    }

    public Collection<AgentCard> cards() {
        return cards.values();
    }

    public boolean knows(String id) {
        return cards.containsKey(id);
    }

    /** Reads and validates the chart; every problem is reported with its line. */
    public static OrgChart read(String file, byte[] bytes) throws BundleException {
        List<Located<AgentCard>> located = ReferenceData.readList(file, bytes, "agents", AgentCard.class);
        List<BundleError> errors = new ArrayList<>();
        Map<String, Located<AgentCard>> byId = new LinkedHashMap<>();
        for (Located<AgentCard> l : located) {
            AgentCard c = l.value();
            if (c.id() == null || c.id().isBlank()) {
                errors.add(new BundleError(file, l.line(), l.column(), "an agent card needs an \"id\""));
            } else if (byId.putIfAbsent(c.id(), l) != null) {
                errors.add(new BundleError(file, l.line(), l.column(), "agent \"" + c.id() + "\" is listed twice (also at line "
                        + byId.get(c.id()).line() + ")"));
            }
            if (c.authority() != null && c.authority().stream().anyMatch(a -> a == null || a.isBlank())) {
                errors.add(new BundleError(file, l.line(), l.column(), "agent \"" + c.id() + "\" has an empty authority pattern"));
            }
        }
        for (Located<AgentCard> l : byId.values()) {
            String boss = l.value().reportsTo();
            if (boss != null && !byId.containsKey(boss)) {
                errors.add(new BundleError(file, l.line(), l.column(), "agent \"" + l.value().id() + "\" reports to \""
                        + boss + "\", which has no card"));
            }
        }
        errors.addAll(cycles(file, byId));
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return new OrgChart(byId.values().stream().map(Located::value).toList());
    }

    private static List<BundleError> cycles(String file, Map<String, Located<AgentCard>> byId) {
        List<BundleError> errors = new ArrayList<>();
        for (Located<AgentCard> start : byId.values()) {
            Set<String> seen = new HashSet<>();
            String at = start.value().id();
            while (at != null && byId.containsKey(at) && seen.add(at)) {
                at = byId.get(at).value().reportsTo();
            }
            if (at != null && at.equals(start.value().id())) {
                errors.add(new BundleError(file, start.line(), start.column(), "agent \"" + at
                        + "\" is its own manager through reports_to " + seen));
            }
        }
        return errors;
    }
}
