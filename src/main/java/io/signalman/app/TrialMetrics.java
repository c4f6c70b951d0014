package io.signalman.app;

import io.signalman.http.Metrics;
import io.signalman.trials.Trials;

/**
 * A live trial's figures on {@code /metrics}, this node's, labelled by arm ({@code live},
 * {@code candidate}) where they are an arm's: counts since the node started, every trial that ran
 * here included, so that they only grow, as Prometheus counters must.
 */
final class TrialMetrics {

    private static final String[] ARMS = {"live", "candidate"};

    private TrialMetrics() {
    }

    static void register(Metrics metrics, Trials trials) {
        for (String arm : ARMS) {
            metrics.functionCounter("signalman.trial.decisions", "decisions made by an arm of a live trial (both arms decide "
                    + "every request of a trial)", () -> trials.count(arm + ".decisions"), "arm", arm);
            metrics.functionCounter("signalman.trial.answered", "requests of a live trial answered with an arm's decision",
                    () -> trials.count(arm + ".answered"), "arm", arm);
            metrics.functionCounter("signalman.trial.errors", "decisions of a live trial's arm that threw",
                    () -> trials.count(arm + ".errors"), "arm", arm);
            metrics.functionCounter("signalman.trial.deadline.exceeded", "decisions of a live trial's arm past their deadline",
                    () -> trials.count(arm + ".deadline_exceeded"), "arm", arm);
            metrics.gauge("signalman.trial.latency.p99.ms", "the running trial's p99 decision latency of an arm on this node",
                    () -> trials.percentileMs(arm, 99), "arm", arm);
        }
        metrics.functionCounter("signalman.trial.comparisons", "requests of a live trial decided by both arms and compared",
                () -> trials.count("comparisons"));
        metrics.functionCounter("signalman.trial.divergences", "comparisons in which the arms decided differently",
                () -> trials.count("diverged"));
        metrics.functionCounter("signalman.trial.fallbacks", "canary requests the candidate failed, answered by the live rules",
                () -> trials.count("fallbacks"));
        metrics.functionCounter("signalman.trial.shadow.dropped", "off-path trial work dropped because its queue was full",
                () -> trials.count("dropped"));
        metrics.gauge("signalman.trial.queued", "off-path trial work waiting for the trial's workers", trials::queued);
        metrics.gauge("signalman.trial.running", "1 while a live trial runs on this node", () -> trials.runningHere() ? 1 : 0);
    }
}
