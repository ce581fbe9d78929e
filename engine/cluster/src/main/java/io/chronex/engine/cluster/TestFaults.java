package io.chronex.engine.cluster;

import io.aeron.cluster.client.ClusterException;
import org.agrona.ErrorHandler;

import java.util.concurrent.locks.LockSupport;

/**
 * Test faults of the engine service, off unless their system properties are set (never outside tests). bin/cluster-node
 * applies them to its first run only, so a member that restarted itself runs as any other.
 *
 * @param delayNanos      time the service spends on every command on top of its work (a service that lags the commit position)
 * @param stuckAfterCommand after applying this many commands the service reports Aeron's "Cluster log must be contiguous"
 *                        error once, as Aeron's service container does when it cannot join a log (0: never)
 */
record TestFaults(long delayNanos, long stuckAfterCommand) {
    /** Microseconds the service sleeps per command. */
    static final String DELAY_PROPERTY = "chronex.testfault.serviceDelayMicros";
    /** Commands the service applies before it reports the contiguous-log error. */
    static final String STUCK_PROPERTY = "chronex.testfault.stuckAfterCommands";
    static final TestFaults NONE = new TestFaults(0, 0);
    /** What the injected error says after Aeron's own words, so that a log tells it from the real one. */
    static final String INJECTED = "(injected by " + STUCK_PROPERTY + ")";

    /** The faults the system properties ask for; {@link #NONE} when none is set. */
    static TestFaults fromProperties() {
        return new TestFaults(Math.max(0, Long.getLong(DELAY_PROPERTY, 0)) * 1_000, Math.max(0, Long.getLong(STUCK_PROPERTY, 0)));
    }

    boolean any() {
        return delayNanos > 0 || stuckAfterCommand > 0;
    }

    /** Called by the service after each command it applied ({@code applied} of them in this run). */
    void afterCommand(final long applied, final ErrorHandler errors) {
        if (delayNanos > 0) {
            final long deadline = System.nanoTime() + delayNanos;
            for (long left = delayNanos; left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(left); // parking may return early: on until the deadline
            }
        }
        if (applied == stuckAfterCommand) {
            errors.onError(new ClusterException("Cluster log must be contiguous for joining image: expectedPosition=-1"
                + " joinPosition=-1 " + INJECTED));
        }
    }
}
