package io.chronex.runtime;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A process's one busy loop, wired the same way in every process: an Agrona {@link Agent}, opened
 * and run on its own thread under an {@link AgentRunner}, until SIGINT or SIGTERM
 * ({@link StopSignal}) or a failure of the agent.
 */
public final class DutyCycle {
    /**
     * How long a stop may take before the runner interrupts the thread: as long as it needs, as
     * before the loop was an agent. An interrupt closes Chronicle's and the snapshot's file channels
     * under them, which is worse than a slow stop; kill -9 remains for a stop that hangs.
     */
    private static final int CLOSE_TIMEOUT_MS = Integer.MAX_VALUE;

    private DutyCycle() {
    }

    /** Opens what an agent works on and returns the agent; called on the agent's own thread. */
    @FunctionalInterface
    public interface Opener {
        Agent open() throws Exception;
    }

    /**
     * Opens the agent with {@code opener} on a new thread named {@code roleName} and runs it there,
     * idling with {@code idle}, while this thread waits for SIGINT or SIGTERM or for the agent to
     * fail; then closes the runner, which lets the agent finish the work in hand and run its onClose
     * on its own thread. Opening on that thread keeps every Chronicle tailer and appender with the
     * one thread that uses them (Chronicle refuses a second thread). A failure of the loop (onStart,
     * doWork or onClose throwing) ends it at once and is logged with its stack trace.
     *
     * @return 0 after a signal, 1 after a failure of the loop
     * @throws Exception what {@code opener} threw, once the thread is gone (a usage error stays one)
     */
    public static int run(final String roleName, final Opener opener, final IdleStrategy idle,
        final Consumer<String> log) throws Exception {
        // Before the thread starts: from the moment the agent says it started, a signal stops it cleanly.
        final StopSignal stop = StopSignal.register();
        final OpenedOnItsThread agent = new OpenedOnItsThread(roleName, opener);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final ErrorHandler onError = error -> {
            final Throwable cause = error instanceof AgentTerminationException && error.getCause() != null ? error.getCause() : error;
            failure.compareAndSet(null, cause);
            if (cause != agent.openFailure) {
                log.accept(roleName + " failed: " + stackTrace(cause));
            }
            stop.signal();
        };
        final AgentRunner runner = new AgentRunner(idle, onError, null, agent);
        final Thread thread = AgentRunner.startOnThread(runner);
        stop.await();
        runner.close(CLOSE_TIMEOUT_MS, null);
        // close() returns when the loop has ended, a moment before its thread does; callers (the
        // JVM's exit, a test) are promised the thread is gone.
        thread.join();
        if (agent.openFailure != null) {
            throw agent.openFailure;
        }
        return failure.get() == null ? 0 : 1;
    }

    /**
     * Runs {@code action} once, on a daemon thread, at the first SIGINT or SIGTERM, in place of the
     * JVM's exit: for a tool that winds down by itself when asked to stop.
     */
    public static void onShutdownSignal(final String threadName, final Runnable action) {
        final StopSignal stop = StopSignal.register();
        final Thread waiter = new Thread(() -> {
            stop.await();
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
     * allocates nothing, so it can sit in a hot loop. The clock is given, so a test moves time
     * itself instead of sleeping and hoping the machine kept up.
     */
    public static final class StatusClock {
        private final long intervalNanos;
        private final NanoClock clock;
        private long next;
        private int calls;

        public StatusClock(final long intervalNanos, final NanoClock clock) {
            this.intervalNanos = intervalNanos;
            this.clock = clock;
            this.next = clock.nanoTime() + intervalNanos;
        }

        /** A status line once a minute, by System.nanoTime. */
        public static StatusClock everyMinute() {
            return new StatusClock(TimeUnit.MINUTES.toNanos(1), SystemNanoClock.INSTANCE);
        }

        /** True about once per interval (the first time a clock read finds the interval over). */
        public boolean due() {
            if ((++calls & 1023) != 0) {
                return false;
            }
            final long now = clock.nanoTime();
            if (now < next) {
                return false;
            }
            next = now + intervalNanos;
            return true;
        }
    }

    /**
     * Opens the real agent on the runner's thread, and ends the loop at its first exception: left to
     * itself, an AgentRunner reports an error and calls doWork again, which for the engine would
     * match the next command on a state the failed one may have half changed.
     */
    private static final class OpenedOnItsThread implements Agent {
        private final String roleName;
        private final Opener opener;
        /** What the opener threw; read by the waiting thread once the runner's thread is gone. */
        private volatile Exception openFailure;
        private Agent agent;

        OpenedOnItsThread(final String roleName, final Opener opener) {
            this.roleName = roleName;
            this.opener = opener;
        }

        @Override
        public void onStart() {
            try {
                agent = opener.open();
            } catch (final Exception e) {
                openFailure = e;
                throw new AgentTerminationException(e);
            }
            agent.onStart();
        }

        @Override
        public int doWork() throws Exception {
            try {
                return agent.doWork();
            } catch (final AgentTerminationException | InterruptedException | ClosedByInterruptException e) {
                // Already a stop, or an interrupt: AgentRunner handles these as they are.
                throw e;
            } catch (final Throwable e) {
                throw new AgentTerminationException(e);
            }
        }

        @Override
        public void onClose() {
            if (agent != null) {
                agent.onClose();
            }
        }

        @Override
        public String roleName() {
            return roleName;
        }
    }
}
