package io.signalman.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.signalman.TestBundles;
import io.signalman.broker.AgentCard;
import io.signalman.broker.BrokerMessage;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.EvaluationTooCostlyException;
import io.signalman.engine.RuleBundle;
import io.signalman.packs.Packs;
import io.signalman.rulelang.RuleFile;
import io.signalman.rulelang.TextBounds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Issue 38's property: rules generated to combine joins of org-chart cards, nested parentheses and
 * repeated patterns near the bounds and budgets are each either refused by the check, which
 * returns, or admitted and evaluated within their budget: a decision returns or is stopped over
 * its budget, never anything else, and the pack decides on. And the model is consistent with the
 * watchdog: a rule the model puts far inside the default budgets is never stopped by them.
 *
 * <p>Each try compiles a copy of the seed bundle with the one generated rule in
 * {@code broker/generated.drl} (about a second: the seed's units come from the compiled cache) and
 * decides on a worker of this class's own, so that a hang is a failure after {@link #BOUND_S}
 * seconds rather than a stuck build. The bound proves "never hangs", not speed.
 *
 * <p>NOTE: the heap. Where the rule budgets are loosened, only the watchdog stands between a rule
 * and the heap, so the generator keeps the true worst case ({@link Rule#combinations}, counted here
 * from the org chart, not by the model) under {@link #HEAP_SAFE} combinations; at the default
 * budgets a rule the check admits with more than that fails the property before it is decided.
 *
 * <p>Shrinking is off: each step is a compile, and jqwik abandons a shrink at its time limit while
 * it goes on running, racing the next property over the process's budgets. A generated rule is a
 * few lines, printed whole in the failure.
 */
class CostBoundsProperties {

    /** The org chart's cards and its trading cards, which the heap bound counts on (checked in {@link #setUp}). */
    private static final int CARDS = 26;
    private static final int TRADING = 4;
    /** The most combinations a generated rule is ever decided with: a few hundred MB if nothing stopped it. */
    private static final long HEAP_SAFE = 500_000;
    /** How long a check or a decision may take before it counts as a hang: generous, on two shared cores. */
    private static final long BOUND_S = 60;
    /** The length of the subtype a generated pattern is matched against: near the 64 KiB body limit. */
    private static final int LONG_TEXT = 60_000;
    private static final String FILE = "broker/generated.drl";
    private static final String NAME = "a generated rule near the budgets";
    private static final String PLAIN_SUBTYPE = "costly.generated";
    private static final String ORDINARY_RULE = "trade messages go to VP Trading";

    private static Path root;
    private static Path rules;
    private static CompiledPack seedBroker;
    private static ExecutorService worker;

    @BeforeContainer
    static void setUp() throws IOException {
        root = Files.createTempDirectory("cost-bounds");
        rules = root.resolve("rules");
        TestBundles.copyTree(TestBundles.RULES, rules);
        seedBroker = TestBundles.shipped().requirePack("broker");
        List<AgentCard> cards = seedBroker.reference().facts().stream()
                .filter(AgentCard.class::isInstance).map(AgentCard.class::cast).toList();
        assertEquals(CARDS, cards.size(), "the heap bound counts on the seed org chart's cards");
        assertEquals(TRADING, cards.stream().filter(c -> c.role().equals("trading")).count());
        assertTrue(cards.stream().anyMatch(c -> c.id().equals("foresight")), "the generated message's sender has a card");
        worker = newWorker();
    }

    @AfterContainer
    static void tearDown() throws IOException {
        worker.shutdownNow();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @AfterTry
    void defaultBudgets() {
        Budgets.use(Budgets.DEFAULT);
    }

    @Property(tries = 8, shrinking = ShrinkingMode.OFF)
    void aRuleNearTheBudgetsIsRefusedInBoundedTimeOrEvaluatedWithinItsBudget(@ForAll("underBudgets") Case c) {
        // Given a generated rule, and the budgets it is checked and decided by
        Budgets.use(c.budgets());
        Rule rule = c.rule();

        // When the check compiles the bundle holding it
        Checked checked = check(rule);

        // Then it returned (within the bound), and either refused the rule at its own file, as it
        // must when the rule is over the text bounds or over the budget's combinations
        boolean mustRefuse = rule.overTextBounds() || rule.combinations() > c.budgets().maxCombinations();
        if (checked.bundle() == null) {
            assertRefusedAtItsFile(checked, rule);
            return;
        }
        assertFalse(mustRefuse, () -> "the check admitted a rule over its bounds, under " + c.budgets() + ":\n" + rule);
        assertTrue(rule.combinations() <= HEAP_SAFE, () -> "the check admitted " + rule.combinations()
                + " combinations under " + c.budgets() + ":\n" + rule);

        // Or admitted it, and then a message it matches is decided by it or stopped over its budget
        Outcome outcome = decide(checked.bundle(), rule.subject());
        assertDecidedByTheRuleOrStopped(outcome, rule, c.budgets());

        // And the pack goes on deciding ordinary messages
        Outcome ordinary = decide(checked.bundle(), "trade.executed");
        assertEquals(ORDINARY_RULE, ordinary.decidedBy(), () -> "after " + outcome + " under " + c.budgets() + ":\n" + rule);
    }

    @Property(tries = 8, shrinking = ShrinkingMode.OFF)
    void aRuleTheModelPutsFarInsideTheDefaultBudgetsIsAdmittedAndNeverStopped(@ForAll("withinTextBounds") Rule rule) {
        // Given a generated rule within the text bounds, read as the check reads it, and the model's estimate
        RuleFile read = RuleFile.read(rule.drl(), seedBroker.definition().vocabulary());
        assertTrue(read.syntaxErrors().isEmpty() && read.errors().isEmpty(), () -> read.syntaxErrors() + " "
                + read.errors() + ":\n" + rule);
        CostModel model = new CostModel(seedBroker.definition().vocabulary(), seedBroker.reference().facts(), Budgets.DEFAULT);
        CostModel.Estimate estimate = model.estimate(read.rules().get(0));

        // When the check compiles it at the default budgets
        Checked checked = check(rule);

        // Then it refuses it exactly when the model puts it over them
        String problem = model.problem(read.rules().get(0));
        if (problem != null) {
            assertRefusedAtItsFile(checked, rule);
            assertTrue(checked.errors().stream().anyMatch(e -> e.message().equals(problem)),
                    () -> "refused for another reason than the model's " + problem + ": " + checked.errors());
            return;
        }
        assertNull(checked.errors(), () -> "refused though the model puts it within the budgets (" + estimate + "):\n" + rule);

        // And a message it matches, decided at the default budgets, is decided by it; where the
        // estimate is under a hundredth of the steps budget it is never stopped (nearer the budget
        // a stop is the watchdog doing its work on a machine slower than the model assumes)
        Outcome outcome = decide(checked.bundle(), rule.subject());
        if (estimate.steps() * 100 <= Budgets.DEFAULT.maxSteps()) {
            assertEquals(NAME, outcome.decidedBy(), () -> "a rule estimated at " + estimate + " was not decided: "
                    + outcome + "\n" + rule);
        } else {
            assertDecidedByTheRuleOrStopped(outcome, rule, Budgets.DEFAULT);
        }
        assertEquals(ORDINARY_RULE, decide(checked.bundle(), "trade.executed").decidedBy());
    }

    // ---- what is generated

    /** How a card pattern joins: not at all, on a unique field of the message, or on a literal that four cards hold. */
    enum Card {
        UNPINNED(null, CARDS),
        BY_ID("id == $m.fromAgent", 1),
        BY_ROLE("role == \"trading\"", TRADING);

        private final String pin;
        private final long matches;

        Card(String pin, long matches) {
            this.pin = pin;
            this.matches = matches;
        }

        String pattern(String test) {
            String constraints = Stream.of(pin, test).filter(java.util.Objects::nonNull).reduce((a, b) -> a + ", " + b).orElse("");
            return constraints.isEmpty() ? "AgentCard()" : "AgentCard( " + constraints + " )";
        }
    }

    /** A pattern's shape: each compiles to copies of what it repeats, and each matches the long subtype. */
    enum Shape {
        STARS, NESTED_STARS, NESTED_CHOICES, CHOICES
    }

    record Regex(Shape shape, int n, int m) {
        String text() {
            return switch (shape) {
                case STARS -> "(.*){" + n + "}z";
                case NESTED_STARS -> "((.*){" + n + "}){" + m + "}z";
                case NESTED_CHOICES -> "((a|b){" + n + "}){" + m + "}.*z";
                case CHOICES -> "(a|b|c|.){" + n + "}.*z";
            };
        }

        /** A subtype of {@link #LONG_TEXT} characters the pattern matches. */
        String subject() {
            String head = shape == Shape.NESTED_CHOICES ? "ab".repeat(n * m).substring(0, n * m) : "";
            return head + "a".repeat(LONG_TEXT - 1 - head.length()) + "z";
        }

        int largestCount() {
            return shape == Shape.NESTED_STARS || shape == Shape.NESTED_CHOICES ? Math.max(n, m) : n;
        }
    }

    /** Where the pattern is tested: nowhere, once on the message, or on every combination reaching the last card. */
    enum Where {
        NOWHERE, ON_MESSAGE, ON_LAST_CARD
    }

    /** A broker rule: a message pattern, its constraint nested {@code depth} deep, and card patterns joined to it. */
    record Rule(List<Card> cards, int depth, Regex regex, Where where) {
        Rule {
            where = where == Where.ON_LAST_CARD && cards.isEmpty() ? Where.ON_MESSAGE : where;
        }

        String when() {
            String test = switch (where) {
                case NOWHERE -> "subtype == \"" + PLAIN_SUBTYPE + "\"";
                case ON_MESSAGE -> "subtype matches \"" + regex.text() + "\"";
                case ON_LAST_CARD -> "subtype str[endsWith] \"z\"";
            };
            StringBuilder w = new StringBuilder("    $m : Message( " + "(".repeat(depth) + test + ")".repeat(depth) + " )\n");
            for (int i = 0; i < cards.size(); i++) {
                boolean last = i == cards.size() - 1;
                String card = cards.get(i).pattern(where == Where.ON_LAST_CARD && last
                        ? "$m.subtype matches \"" + regex.text() + "\"" : null);
                w.append("    ").append(card).append('\n');
            }
            return w.toString();
        }

        String drl() {
            return TestBundles.brokerRule(NAME, 950, when());
        }

        /** The subtype of a message the rule's message pattern matches. */
        String subject() {
            return where == Where.NOWHERE ? PLAIN_SUBTYPE : regex.subject();
        }

        /** Whether a stop is plausible at a loosened budget: a pattern over the long subtype, or a join of thousands. */
        boolean costly() {
            return where != Where.NOWHERE || combinations() >= 10_000;
        }

        /** The true worst case, counted from the org chart: every card pattern's matches multiplied. */
        long combinations() {
            return cards.stream().mapToLong(c -> c.matches).reduce(1, Math::multiplyExact);
        }

        /** The deepest brackets: the constraint's parentheses, the pattern's own, and {@code str[endsWith]}'s. */
        int nesting() {
            return depth + 1 + (where == Where.ON_LAST_CARD ? 1 : 0);
        }

        /** Over a bound the rule readers enforce, counted here from the text: too deep, or a count over the limit. */
        boolean overTextBounds() {
            return nesting() > TextBounds.MAX_DEPTH || where != Where.NOWHERE && regex.largestCount() > TextBounds.MAX_REPEAT;
        }

        @Override
        public String toString() {
            return when();
        }
    }

    /** A rule and the budgets it is checked and decided by. */
    record Case(Rule rule, Budgets budgets) {
    }

    @Provide
    Arbitrary<Case> underBudgets() {
        // Loosened rule budgets, as an operator could loosen them, leave only the watchdog (at a
        // decision budget a runaway reaches in a moment) between the rule and the heap.
        Arbitrary<Budgets> loosened = Combinators.combine(Arbitraries.of(16, 64), Arbitraries.of(50, 200))
                .as((mb, ms) -> new Budgets(Long.MAX_VALUE, Long.MAX_VALUE, Budgets.DEFAULT.longestText(), mb * 1024L * 1024, ms,
                        0, 120, Long.MAX_VALUE));
        Arbitrary<Budgets> budgets = Arbitraries.oneOf(Arbitraries.just(Budgets.DEFAULT), loosened);
        return Combinators.combine(rules(12, 150), budgets).as(Case::new)
                .filter(c -> c.budgets() == Budgets.DEFAULT || c.rule().combinations() <= HEAP_SAFE && c.rule().costly());
    }

    @Provide
    Arbitrary<Rule> withinTextBounds() {
        return rules(TextBounds.MAX_DEPTH - 1, TextBounds.MAX_REPEAT).filter(r -> r.nesting() <= TextBounds.MAX_DEPTH)
                .filter(r -> r.where() == Where.NOWHERE || io.signalman.rulelang.RegexSize.of(r.regex().text()).problem() == null);
    }

    /** Rules with up to seven card patterns, constraints nested up to {@code maxDepth}, counts up to {@code maxCount}. */
    private static Arbitrary<Rule> rules(int maxDepth, int maxCount) {
        Arbitrary<List<Card>> cards = Arbitraries.of(Card.class).list().ofMaxSize(7).withSizeDistribution(RandomDistribution.uniform());
        Arbitrary<Integer> depth = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.integers().between(0, Math.min(maxDepth, TextBounds.MAX_DEPTH - 1))),
                Tuple.of(1, Arbitraries.integers().between(0, maxDepth)));
        // Counts around the limit of 100, and small outer counts, so that nested patterns land near the size limit too
        Arbitrary<Integer> count = Arbitraries.oneOf(Arbitraries.integers().between(1, maxCount),
                Arbitraries.of(TextBounds.MAX_REPEAT - 1, TextBounds.MAX_REPEAT, TextBounds.MAX_REPEAT + 1)
                        .filter(n -> n <= maxCount));
        Arbitrary<Integer> outer = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.integers().between(1, 12)),
                Tuple.of(1, Arbitraries.integers().between(1, maxCount)));
        Arbitrary<Regex> regex = Combinators.combine(Arbitraries.of(Shape.class), count, outer).as(Regex::new);
        return Combinators.combine(cards, depth, regex, Arbitraries.of(Where.class)).as(Rule::new);
    }

    // ---- checking and deciding, each on the worker, each bounded

    /** The check's outcome: the bundle it compiled, or its errors. */
    record Checked(RuleBundle bundle, List<BundleError> errors) {
    }

    /** What a decision came to: the deciding rule, a stop over budget, or anything else it threw. */
    record Outcome(String decidedBy, EvaluationTooCostlyException stopped, Throwable failed) {
        @Override
        public String toString() {
            return decidedBy != null ? "decided by \"" + decidedBy + "\"" : stopped != null ? "stopped: " + stopped.getMessage()
                    : "failed: " + failed;
        }
    }

    private static Checked check(Rule rule) {
        return bounded("the check of\n" + rule, () -> {
            Files.writeString(rules.resolve(FILE), rule.drl(), StandardCharsets.UTF_8);
            try {
                return new Checked(Packs.compiler().compile(BundleFiles.read(rules)), null);
            } catch (BundleException e) {
                return new Checked(null, e.errors());
            }
        });
    }

    private static Outcome decide(RuleBundle bundle, String subtype) {
        BrokerMessage m = new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"), "event", subtype, null);
        return bounded("a decision of " + subtype.length() + " characters of subtype", () -> {
            try {
                var d = Packs.BROKER.decide(bundle, m, false);
                return new Outcome(d.decidedBy() == null ? "(no rule)" : d.decidedBy().name(), null, null);
            } catch (EvaluationTooCostlyException e) {
                return new Outcome(null, e, null);
            } catch (Throwable t) { // OutOfMemoryError included: whatever it is, the property fails on it
                return new Outcome(null, null, t);
            }
        });
    }

    /** Runs {@code work} on the worker; failing, and leaving the worker to its hang, when it outlives the bound. */
    private static <T> T bounded(String what, Callable<T> work) {
        Future<T> f = worker.submit(work);
        try {
            return f.get(BOUND_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            worker = newWorker();
            return fail(what + " did not return within " + BOUND_S + " s");
        } catch (ExecutionException e) {
            throw new AssertionError(what + " threw", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** One thread, reused across tries so the watchdog keeps one watch for it; daemon, so a hang cannot hold the JVM. */
    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cost-bounds-worker");
            t.setDaemon(true);
            return t;
        });
    }

    private static void assertRefusedAtItsFile(Checked checked, Rule rule) {
        assertTrue(checked.errors() != null && !checked.errors().isEmpty(), () -> "admitted:\n" + rule);
        for (BundleError e : checked.errors()) {
            assertEquals(FILE, e.file(), () -> "refused at another file than the rule's: " + checked.errors() + "\n" + rule);
            assertTrue(e.line() >= 1, () -> "refused without a line: " + e);
        }
    }

    private static void assertDecidedByTheRuleOrStopped(Outcome outcome, Rule rule, Budgets budgets) {
        if (outcome.failed() != null) {
            throw new AssertionError("the decision failed otherwise than by a stop, under " + budgets + ":\n" + rule,
                    outcome.failed());
        }
        if (outcome.stopped() == null) {
            assertEquals(NAME, outcome.decidedBy(), () -> "the rule did not decide the message it matches:\n" + rule);
        }
    }
}

