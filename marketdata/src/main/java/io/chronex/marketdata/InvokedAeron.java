package io.chronex.marketdata;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An embedded media driver and an Aeron client with no busy threads of their own (Aeron's invoker mode): the owner's loop
 * turns both, so a feed process (the publisher, each client) wakes one thread per pause instead of three
 * (docs/marketdata.md, "Idling").
 */
public final class InvokedAeron implements AutoCloseable {
    /**
     * How long the loop may stop before Aeron's liveness checks give its Aeron client up: the driver and the client's
     * conductor share the loop's pauses (a long GC, a blocked write of the log), so longer than Aeron's 10 s default.
     */
    public static final int LIVENESS_SECONDS = 60;

    private static final long LIVENESS_NANOS = TimeUnit.SECONDS.toNanos(LIVENESS_SECONDS);
    /**
     * How long the async executor's thread (Aeron's, for name resolution) sleeps between looks for work: its default wakes
     * thousands of times a second for tasks that come at start and when endpoints are re-resolved.
     */
    private static final long ASYNC_EXECUTOR_SLEEP_MILLIS = 10;

    private final MediaDriver driver;
    private final Aeron aeron;
    private final AgentInvoker driverInvoker;
    private final AgentInvoker clientInvoker;
    private boolean driverBusy;

    private InvokedAeron(final MediaDriver driver, final Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
        this.driverInvoker = driver.sharedAgentInvoker();
        this.clientInvoker = aeron.conductorAgentInvoker();
    }

    /** A media driver context in {@code dir} for invoker mode with the settings both feed processes share; the caller adds its own. */
    public static MediaDriver.Context driverContext(final Path dir) {
        return new MediaDriver.Context()
            .aeronDirectoryName(dir.toString())
            .threadingMode(ThreadingMode.INVOKER)
            .asyncExecutorIdleStrategy(new SleepingMillisIdleStrategy(ASYNC_EXECUTOR_SLEEP_MILLIS))
            .clientLivenessTimeoutNs(LIVENESS_NANOS)
            // Aeron requires it above the client's liveness.
            .publicationUnblockTimeoutNs(2 * LIVENESS_NANOS)
            .termBufferSparseFile(true)
            .ipcTermBufferLength(64 * 1024)
            .dirDeleteOnShutdown(true);
    }

    /**
     * An Aeron client turned from the caller's thread, on {@code driver} (launched from {@link #driverContext}); closes the
     * driver when it cannot connect.
     */
    public static InvokedAeron connect(final MediaDriver driver) {
        try {
            return new InvokedAeron(driver, Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .useConductorAgentInvoker(true)
                // Aeron turns the driver itself while it waits for the driver's answer to a command.
                .driverAgentInvoker(driver.sharedAgentInvoker())
                .driverTimeoutMs(TimeUnit.SECONDS.toMillis(LIVENESS_SECONDS))));
        } catch (final RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** The client, for publications and subscriptions. */
    public Aeron aeron() {
        return aeron;
    }

    /**
     * Turns the driver until a turn finds nothing to do or {@code maxTurns} have run (Aeron's sender puts one datagram per
     * publication on the wire a turn, its receiver reads one per channel); returns the driver's work count, mostly bytes.
     */
    public int turnDriver(final int maxTurns) {
        int work = 0;
        for (int i = 0; i < maxTurns; i++) {
            final int turn = driverInvoker.invoke();
            if (turn == 0) {
                driverBusy = false;
                return work;
            }
            work += turn;
        }
        driverBusy = true;
        return work;
    }

    /** Whether the last {@link #turnDriver} stopped at its bound with the driver still busy. */
    public boolean driverBusy() {
        return driverBusy;
    }

    /** One turn of the Aeron client's conductor (keepalives, timeouts); after the driver's, which refreshes its heartbeat. */
    public int turnClient() {
        return clientInvoker.invoke();
    }

    /** Whether Aeron has given the client up (the loop stopped for {@value #LIVENESS_SECONDS} s) or it was closed. */
    public boolean isClosed() {
        return aeron.isClosed();
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }
}
