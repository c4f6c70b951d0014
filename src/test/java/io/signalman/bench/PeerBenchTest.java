package io.signalman.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.OrgChart;
import io.signalman.broker.ReferenceRouter;
import org.junit.jupiter.api.Test;

/** The peer the benchmark compares with decides what the broker decides, or the comparison means nothing. */
class PeerBenchTest {

    @Test
    void easyRulesDecidesEveryBenchmarkMessageAsTheSeedsRouterDoes() {
        PeerBench peer = new PeerBench();
        peer.setUp();
        ReferenceRouter seed = new ReferenceRouter(TestBundles.shipped().requirePack("broker").reference().as(OrgChart.class));
        for (BrokerMessage m : BrokerBench.MESSAGES) {
            assertEquals(seed.route(m), peer.decide(m), m.toString());
        }
    }
}
