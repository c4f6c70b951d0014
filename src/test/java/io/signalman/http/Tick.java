package io.signalman.http;

import io.signalman.rulelang.RuleVocabulary;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** One firing of the slow test rules' runaway rule (see {@link Brake}): a fact whose one test is slow. */
@RuleVocabulary
public record Tick(int n) {

    /** The recipient the slow rule names, after a few milliseconds parked: 10,000 firings take a minute. */
    public String crawl() {
        Brake.crawledOnce();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        return "openclaw";
    }
}
