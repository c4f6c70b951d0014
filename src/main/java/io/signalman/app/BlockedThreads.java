package io.signalman.app;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.threadchecker.BlockedThreadChecker;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts Vert.x's blocked-thread warnings (nothing may block an event loop) and logs them
 * as Vert.x would, under the same logger name. Counting at the checker rather than in a log
 * appender keeps the count right whatever logging backend the build uses.
 *
 * <p>NOTE: {@code setThreadBlockedHandler} is Vert.x internal API (stable since 4.3 as
 * {@code io.vertx.core.impl.btc}, moved to {@code internal.threadchecker} in 5); it replaces the
 * default handler, which is why this one logs too.
 */
final class BlockedThreads {

    private static final Logger LOG = LoggerFactory.getLogger(BlockedThreadChecker.LOGGER_NAME);

    private final LongAdder warnings = new LongAdder();
    private final LongAdder inOurCode = new LongAdder();

    BlockedThreads(Vertx vertx) {
        ((VertxInternal) vertx).blockedThreadChecker().setThreadBlockedHandler(this::blocked);
    }

    long warnings() {
        return warnings.sum();
    }

    /**
     * Warnings whose blocked stack runs through Signalman's own code: a handler of ours that
     * blocks. The others are the loop stalled inside Netty, which on a loaded machine is the
     * scheduler or a GC pause, not a blocking call (tests assert on this count; see EventLoopTest).
     */
    long inOurCode() {
        return inOurCode.sum();
    }

    private void blocked(BlockedThreadEvent e) {
        warnings.increment();
        String message = "Thread " + e.thread().getName() + " has been blocked for " + e.duration() / 1_000_000
                + " ms, time limit is " + e.maxExecTime() / 1_000_000 + " ms";
        // Unlike Vert.x's default (a stack only after 5 s), always say where: a blocked loop is a
        // bug to fix, and the place is what fixing it needs.
        Throwable where = new Throwable("thread blocked here");
        where.setStackTrace(e.thread().getStackTrace());
        for (StackTraceElement frame : where.getStackTrace()) {
            if (frame.getClassName().startsWith("io.signalman.")) {
                inOurCode.increment();
                break;
            }
        }
        LOG.warn(message, where);
    }
}
