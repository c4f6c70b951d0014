package io.signalman.http;

import io.signalman.engine.PackFiles;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.AgentCard;
import io.signalman.broker.Message;
import io.signalman.broker.OrgChart;
import io.signalman.broker.Route;
import io.signalman.engine.BundleException;
import io.signalman.engine.Collector;
import io.signalman.engine.PackDefinition;
import io.signalman.engine.PackShape;
import io.signalman.engine.ParsedRule;
import io.signalman.engine.ReferenceData;
import io.signalman.rulelang.RuleVocabulary;
import io.signalman.rulelang.Vocabulary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The facts of the test bundle {@code src/test/bundles/slow-rules}: rules that are slow (or fail) on purpose,
 * so the tests control how long work takes without timing anything themselves. Brake is a fact of
 * the rule language like any other, published to a test-only version of the broker pack
 * ({@link #packs()}), so the slow rules pass every check the shipped rules pass: what they test is
 * what lies behind those checks (deadlines, stuck workers, overload). The gate is static because
 * each test closes and opens it around its own use.
 */
@RuleVocabulary
public final class Brake {

    static final Path BUNDLE = Path.of("src/test/bundles/slow-rules");

    private static volatile CountDownLatch gate = new CountDownLatch(0);
    private static final AtomicInteger HELD = new AtomicInteger();
    private static final AtomicLong CRAWLED = new AtomicLong();

    private Brake() {
    }

    /** A test that waits until the test opens the gate (at most 60 s, so nothing hangs forever). */
    public boolean hold(String subtype) {
        HELD.incrementAndGet();
        try {
            gate.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            HELD.decrementAndGet();
        }
        return true;
    }

    /** A test whose rule fails: it throws, as a rule that meets data it never expected does. */
    public boolean fails(String subtype) {
        throw new IllegalStateException("a test rule failed on purpose for " + subtype);
    }

    /** The ticks a runaway message starts: more than the firing bound, each firing slow. */
    public List<Tick> ticks(String subtype) {
        List<Tick> out = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            out.add(new Tick(i));
        }
        return out;
    }

    static void close() {
        gate = new CountDownLatch(1);
    }

    static void open() {
        gate.countDown();
    }

    /** Evaluations waiting at the gate now. */
    static int held() {
        return HELD.get();
    }

    static void crawledOnce() {
        CRAWLED.incrementAndGet();
    }

    /** Firings of the runaway rule so far. */
    static long crawled() {
        return CRAWLED.get();
    }

    /**
     * The packs a server of the slow rules compiles: the shipped ones, with the broker's
     * vocabulary extended by Brake and Tick and a Brake in every broker session.
     */
    public static List<PackDefinition> packs() {
        List<PackDefinition> out = new ArrayList<>();
        for (PackDefinition d : Packs.definitions()) {
            out.add(d.name().equals(Packs.BROKER.name()) ? new Braking(d) : d);
        }
        return out;
    }

    /** The broker pack, with a brake. */
    private record Braking(PackDefinition broker) implements PackDefinition {

        private static final Vocabulary VOCABULARY = Vocabulary.of(Route.class, Message.class, AgentCard.class, OrgChart.class,
                Brake.class, Tick.class);

        @Override
        public PackShape shape() {
            return broker.shape();
        }

        @Override
        public Vocabulary vocabulary() {
            return VOCABULARY;
        }

        @Override
        public ReferenceData loadReference(PackFiles files) throws BundleException {
            ReferenceData r = broker.loadReference(files);
            List<Object> facts = new ArrayList<>(r.facts());
            facts.add(new Brake());
            return new ReferenceData(r.value(), facts);
        }

        @Override
        public Collector newCollector(ReferenceData reference) {
            return broker.newCollector(reference);
        }

        @Override
        public Set<String> alwaysPresent() {
            return broker.alwaysPresent();
        }

        @Override
        public ReferenceData analyze(List<ParsedRule> rules, ReferenceData reference) throws BundleException {
            return broker.analyze(rules, reference);
        }
    }

    /** The test bundle with the shipped org chart, in {@code dir}. */
    static Path rules(Path dir) {
        Path rules = dir.resolve("rules");
        try {
            Files.createDirectories(rules.resolve("broker"));
            Files.copy(BUNDLE.resolve("broker/routing.drl"), rules.resolve("broker/routing.drl"));
            Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), rules.resolve("broker/org-chart.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rules;
    }
}
