package io.chronex.runtime;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/** The idle strategies every busy loop of ours offers with {@code --idle}, by name, in one place. */
public final class IdleStrategies {
    /** The names --idle accepts, the default first. */
    public static final String[] CHOICES = {"backoff", "yield", "busy"};

    /**
     * The longest park in µs of {@link #clusterByName}'s backoff, when not {@value #DEFAULT_CLUSTER_MAX_PARK_MICROS}.
     * For the tests' cluster members and bridges, several of which share 2 cores: idle, each member took 22-29 % of a core
     * with the 200 µs cap (a dozen threads waking 5,000 times a second), which the test's other processes were waiting for.
     */
    public static final String CLUSTER_MAX_PARK_PROPERTY = "chronex.idle.clusterMaxParkMicros";
    /** {@link #clusterByName}'s cap in µs (measured: see there). */
    public static final long DEFAULT_CLUSTER_MAX_PARK_MICROS = 200;

    private IdleStrategies() {
    }

    /**
     * backoff: spin 100 times, yield 2,000 times, then park from 1 µs doubling to 1 ms (the default:
     * leaves a small box usable); yield: Thread.yield forever (never sleeps, gives way to anything
     * runnable); busy: spin (give the thread a core of its own).
     *
     * @return null for an unknown name
     */
    public static IdleStrategy byName(final String name) {
        return switch (name) {
            case "backoff" -> new BackoffIdleStrategy(100, 2_000, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
            case "yield" -> new YieldingIdleStrategy();
            case "busy" -> new BusySpinIdleStrategy();
            default -> null;
        };
    }

    /**
     * For a reader that must stay off a small box's CPUs while it follows a busy writer (the market-data publisher and the
     * feed client, each of which turns its media driver from the same loop): backoff is a {@link PacedIdleStrategy} that
     * parks {@code pauseNanos} after a turn with less work than {@code busyWork}, so that idle or under a trickle each loop
     * wakes about once per pause and under load it runs flat out; yield and busy as {@link #byName}. Measured in
     * docs/performance.md
     * ("Market data"): with the plain backoff, a publisher, a feed client and their two drivers (then on threads of their
     * own) took more than a core on the 2-core VM while the engine drained.
     *
     * @return null for an unknown name
     */
    public static IdleStrategy pacedByName(final String name, final long pauseNanos, final int busyWork) {
        if ("backoff".equals(name)) {
            return new PacedIdleStrategy(pauseNanos, busyWork);
        }
        return byName(name);
    }

    /**
     * For the threads of a cluster member and of a bridge (media drivers, archive, consensus module, service, the bridge's
     * loop): as {@link #byName}, except that backoff spins 100 times, never yields, and parks from 1 µs doubling to 200 µs
     * only. A command crosses about a dozen such threads one after the other (bridge, its driver, the member's driver,
     * consensus module, archive, consensus module, service, driver, the bridge's driver, bridge); with the plain backoff each
     * was found parked for up to 1 ms, or yielding 2,000 times on a 2-core box where the threads of four processes compete.
     * Measured with bin/bench-cluster --kills 0 --count 2000 --rate 2000 --duration 5 (2-core VM, 2026-11-27, separate runs,
     * plain and 50 µs by a helper): ping-pong p50 one member 8.1 ms plain, 2.0 ms with a 50 µs park, 2.4 ms with 200 µs;
     * three members 19.7, 6.7 and 7.1 ms. The
     * 200 µs cap wakes an idle thread 5,000 times a second rather than 20,000, which three members on two cores felt:
     * at 2,000 orders/s the 50 µs cap fell behind (1,701/s answered), 200 µs kept up (1,951/s, as plain backoff's 1,954/s).
     * The system property {@value #CLUSTER_MAX_PARK_PROPERTY} sets another cap in µs (the tests' processes, see there).
     *
     * @return null for an unknown name
     */
    public static IdleStrategy clusterByName(final String name) {
        if ("backoff".equals(name)) {
            final String property = System.getProperty(CLUSTER_MAX_PARK_PROPERTY);
            final long maxParkMicros;
            try {
                maxParkMicros = property == null ? DEFAULT_CLUSTER_MAX_PARK_MICROS : Long.parseLong(property.trim());
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(CLUSTER_MAX_PARK_PROPERTY + " must be a whole number of µs, not '" + property + "'", e);
            }
            if (maxParkMicros < 1) {
                throw new IllegalArgumentException(CLUSTER_MAX_PARK_PROPERTY + " must be at least 1 (µs): " + maxParkMicros);
            }
            return new BackoffIdleStrategy(100, 0, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(maxParkMicros));
        }
        return byName(name);
    }
}
