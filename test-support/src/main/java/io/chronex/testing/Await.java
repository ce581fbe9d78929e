package io.chronex.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting in tests for something another process or thread does: a condition and a deadline, never
 * a fixed sleep. The condition is checked at once, then again with a short back-off (1 ms doubling
 * to 50 ms), so a fast machine does not wait and a slow one is given until the deadline; past it,
 * the wait fails naming what did not happen.
 */
public final class Await {
    /** A condition that may read files or sockets. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Returns once {@code condition} holds; throws AssertionError naming {@code what} after {@code seconds}. */
    public static void until(final String what, final long seconds, final Condition condition) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long pause = TimeUnit.MILLISECONDS.toNanos(1);
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + seconds + " s: " + what);
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
