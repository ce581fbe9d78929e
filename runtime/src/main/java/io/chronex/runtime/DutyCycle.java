package io.chronex.runtime;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ShutdownSignalBarrier;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A process's one busy loop, wired the same way in every process: an Agrona {@link Agent} on its own
 * thread under an {@link AgentRunner}, until SIGINT or SIGTERM ({@link ShutdownSignalBarrier}) or a
 * failure of the agent.
 */
public final class DutyCycle {
    /**
     * How long a stop (the agent's onClose: a snapshot, logouts) may take before the runner
     * interrupts the thread; long, because an interrupted snapshot write is a lost snapshot.
     */
    private static final int CLOSE_TIMEOUT_MS = 60_000;

    private DutyCycle() {
    }

    /**
     * Runs {@code agent} on a thread named after its role, idling with {@code idle}, and waits on
     * this thread for SIGINT or SIGTERM or for the agent to fail; then closes the runner, which lets
     * the agent finish the work in hand and run its onClose on its own thread. A failure (onStart,
     * doWork or onClose throwing) ends the loop at once and is logged with its stack trace.
     *
     * @return 0 after a signal, 1 after a failure
     */
    public static int run(final Agent agent, final IdleStrategy idle, final Consumer<String> log) {
        // Before the thread starts: from the moment the agent says it started, a signal stops it cleanly.
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final ErrorHandler onError = error -> {
            final Throwable cause = error instanceof AgentTerminationException && error.getCause() != null ? error.getCause() : error;
            failure.compareAndSet(null, cause);
            log.accept(agent.roleName() + " failed: " + stackTrace(cause));
            barrier.signal();
        };
        final AgentRunner runner = new AgentRunner(idle, onError, null, new StopOnFailure(agent));
        AgentRunner.startOnThread(runner);
        barrier.await();
        runner.close(CLOSE_TIMEOUT_MS, thread -> log.accept("the " + thread.getName() + " thread has not stopped within "
            + CLOSE_TIMEOUT_MS / 1000 + " s; interrupting it"));
        return failure.get() == null ? 0 : 1;
    }

    /**
     * Runs {@code action} once, on a daemon thread, at the first SIGINT or SIGTERM, in place of the
     * JVM's exit: for a tool that winds down by itself when asked to stop.
     */
    public static void onShutdownSignal(final String threadName, final Runnable action) {
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final Thread waiter = new Thread(() -> {
            barrier.await();
            action.run();
        }, threadName);
        waiter.setDaemon(true);
        waiter.start();
    }

    private static String stackTrace(final Throwable error) {
        final StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        return text.toString().stripTrailing();
    }

    /**
     * Says when a busy loop's status line is due: reads the clock once every 1,024 calls only, and
     * allocates nothing, so it can sit in a hot loop.
     */
    public static final class StatusClock {
        private final long intervalNanos;
        private long next;
        private int calls;

        public StatusClock(final long intervalNanos) {
            this.intervalNanos = intervalNanos;
            this.next = System.nanoTime() + intervalNanos;
        }

        /** A status line once a minute. */
        public static StatusClock everyMinute() {
            return new StatusClock(TimeUnit.MINUTES.toNanos(1));
        }

        /** True about once per interval (the first time a clock read finds the interval over). */
        public boolean due() {
            if ((++calls & 1023) != 0) {
                return false;
            }
            final long now = System.nanoTime();
            if (now < next) {
                return false;
            }
            next = now + intervalNanos;
            return true;
        }
    }

    /**
     * Ends the loop at the first exception: left to itself, an AgentRunner reports an error and calls
     * doWork again, which for the engine would match the next command on a state the failed one may
     * have half changed.
     */
    private static final class StopOnFailure implements Agent {
        private final Agent agent;

        StopOnFailure(final Agent agent) {
            this.agent = agent;
        }

        @Override
        public void onStart() {
            agent.onStart();
        }

        @Override
        public int doWork() throws Exception {
            try {
                return agent.doWork();
            } catch (final AgentTerminationException | InterruptedException | ClosedByInterruptException e) {
                // Already a stop, or the runner's own interrupt at close: AgentRunner handles these as they are.
                throw e;
            } catch (final Throwable e) {
                throw new AgentTerminationException(e);
            }
        }

        @Override
        public void onClose() {
            agent.onClose();
        }

        @Override
        public String roleName() {
            return agent.roleName();
        }
    }
}
