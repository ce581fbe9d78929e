package io.chronex.runtime;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * An idle strategy for a loop that should wake about once per pause, whether it found nothing or a little, and run flat
 * out only while it finds full batches: after a turn whose work count is below {@code busyWork} it parks for the pause;
 * after a full one (more is probably waiting) the next turn follows at once.
 *
 * <p>Why not Agrona's back-off: it idles only after a turn that found nothing, and it starts again from a 1 µs park each
 * time. Under a steady trickle of work (a media driver with a message every few microseconds) such a loop never parks,
 * or parks and wakes several times between two messages, and pays system calls for each; on a small box that is CPU
 * taken from the engine. Paced, each turn handles a batch (a media driver sends many messages in one datagram).
 *
 * <p>A pause of 0 is our plain back-off without yields: spin 100 times, then park from 1 µs doubling to 1 ms.
 */
public final class PacedIdleStrategy implements IdleStrategy {
    private final long pauseNanos;
    private final int busyWork;
    private final LongConsumer park;
    private final BackoffIdleStrategy backoff =
        new BackoffIdleStrategy(100, 0, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));

    /** Parks {@code pauseNanos} after every turn whose work count is below {@code busyWork} (0: the plain back-off). */
    public PacedIdleStrategy(final long pauseNanos, final int busyWork) {
        this(pauseNanos, busyWork, LockSupport::parkNanos);
    }

    /** As above, parking with {@code park} (a test watches the pauses). */
    PacedIdleStrategy(final long pauseNanos, final int busyWork, final LongConsumer park) {
        if (pauseNanos < 0 || busyWork < 1) {
            throw new IllegalArgumentException("pause must not be negative and busy work must be positive: " + pauseNanos + ", "
                + busyWork);
        }
        this.pauseNanos = pauseNanos;
        this.busyWork = busyWork;
        this.park = park;
    }

    @Override
    public void idle(final int workCount) {
        if (workCount >= busyWork) {
            backoff.reset();
            return;
        }
        if (pauseNanos > 0) {
            park.accept(pauseNanos);
        } else if (workCount > 0) {
            backoff.reset();
        } else {
            backoff.idle();
        }
    }

    @Override
    public void idle() {
        idle(0);
    }

    @Override
    public void reset() {
        backoff.reset();
    }

    @Override
    public String alias() {
        return "paced";
    }

    /** The park after a turn with less than {@link #busyWork}. */
    public long pauseNanos() {
        return pauseNanos;
    }

    /** The work count of a turn after which the next follows at once. */
    public int busyWork() {
        return busyWork;
    }
}
