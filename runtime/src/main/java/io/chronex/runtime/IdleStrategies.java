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
}
