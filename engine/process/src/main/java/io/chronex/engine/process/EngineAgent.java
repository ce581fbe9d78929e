package io.chronex.engine.process;

import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.QueueGap;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.Tool;
import net.openhft.affinity.AffinityLock;
import org.agrona.concurrent.Agent;

import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;

/**
 * bin/engine's loop as an Agrona agent: answers the journal's commands on its own thread (pinned
 * with --cpu), logs a status line a minute, and at stop writes a snapshot and the "engine stopping"
 * line. The service is opened (recovery) and used on this one thread only: Chronicle refuses a
 * tailer used by two threads.
 */
final class EngineAgent implements Agent {
    private final EngineService service;
    private final RunFiles log;
    private final Path dataDir;
    private final String idleName;
    /** The engine thread's CPU, or null when not pinned. */
    private final AffinityLock lock;
    private final DutyCycle.StatusClock status = DutyCycle.StatusClock.everyMinute();
    /** While idle, how often to ask whether the journal goes on past a stretch the tailer cannot read. */
    private final DutyCycle.StatusClock stallCheck = new DutyCycle.StatusClock(java.util.concurrent.TimeUnit.SECONDS.toNanos(5),
        org.agrona.concurrent.SystemNanoClock.INSTANCE);
    private long answeredAtStallCheck = -1;
    /** How often DATA/ledger gets the money totals (the monitor's interval is a second by default). */
    private final DutyCycle.StatusClock ledger = new DutyCycle.StatusClock(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(500),
        org.agrona.concurrent.SystemNanoClock.INSTANCE);
    private QueueGap reportedGap;
    private long answeredAtLastStatus;
    /** A command failed part way: the state may hold half of it, so it must not become a snapshot. */
    private boolean failed;

    private EngineAgent(final EngineService service, final RunFiles log, final Path dataDir, final String idleName,
        final AffinityLock lock) {
        this.service = service;
        this.log = log;
        this.dataDir = dataDir;
        this.idleName = idleName;
        this.lock = lock;
    }

    /**
     * On the engine thread: pins it to {@code cpu} (when not -1; the lock binds the thread that
     * takes it), then recovers, so recovery runs where the loop will.
     *
     * @throws Args.UsageException when the data directory's journal, snapshots or recorded
     *                             configuration do not fit (said as "engine: reason", exit 2)
     */
    static EngineAgent open(final DataDirectory data, final EngineConfig config, final boolean applyConfigChange, final long snapshotEvery,
                            final long checkpointEvery, final long storageReserve, final String idleName, final int cpu,
                            final RunFiles log) {
        final AffinityLock lock = cpu < 0 ? null : pin(cpu, log);
        boolean opened = false;
        try {
            final EngineService service = new EngineService(data, config, snapshotEvery, checkpointEvery,
                message -> log.log("warning: %s", message), message -> log.log("%s", message), message -> log.log("error: %s", message));
            service.storageReserve(storageReserve);
            try {
                log.log("%s", service.recordConfiguration(config, applyConfigChange));
            } catch (final EngineService.ConfigMismatch e) {
                service.close();
                throw new Args.UsageException(e.getMessage());
            }
            opened = true;
            return new EngineAgent(service, log, data.root(), idleName, lock);
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        } finally {
            if (!opened && lock != null) {
                lock.release();
            }
        }
    }

    /** A CPU that cannot be had is a warning, not a reason to stay down. */
    private static AffinityLock pin(final int cpu, final RunFiles log) {
        try {
            final AffinityLock lock = AffinityLock.acquireLock(cpu);
            log.log("engine thread pinned: %s", lock.isAllocated() ? "CPU " + lock.cpuId() : "no (CPU " + cpu + " could not be reserved)");
            return lock;
        } catch (final RuntimeException | LinkageError e) {
            log.log("warning: cannot pin the engine thread to CPU %d: %s", cpu, e);
            return null;
        }
    }

    @Override
    public String roleName() {
        return "engine";
    }

    @Override
    public void onStart() {
        log.log("engine started (JVM up %d ms): chronex %s, Java %s, data dir %s, idle %s;"
                + " recovered through journal index %s in %.1f ms (%s, %d commands replayed in %.1f ms%s)",
            ManagementFactory.getRuntimeMXBean().getUptime(), Tool.version(), System.getProperty("java.version"), dataDir, idleName,
            service.recoveredThrough() < 0 ? "none (fresh start)" : Long.toHexString(service.recoveredThrough()),
            service.recoveryNanos() / 1e6, service.restoredSnapshot() == null ? "no snapshot" : "from "
                + service.restoredSnapshot().getFileName(),
            service.replayedCommands(), service.replayNanos() / 1e6,
            service.replayedCommands() < 1000 ? "" : String.format(Locale.ROOT, ", %.2f M commands/s",
                service.replayedCommands() * 1e3 / Math.max(1, service.replayNanos())));
    }

    /** The hot loop's body: one poll and a counter check; no allocation, no lock. */
    @Override
    public int doWork() {
        final boolean answered;
        try {
            answered = service.poll();
        } catch (final RuntimeException | Error e) {
            failed = true;
            service.failedPartWay();
            throw e;
        }
        if (status.due()) {
            logStatus();
        }
        if (ledger.due()) {
            service.publishLedger(System.currentTimeMillis());
        }
        if (!answered && stallCheck.due()) {
            checkForStall();
        }
        return answered ? 1 : 0;
    }

    /**
     * An engine with nothing to read while the journal says commands follow is stuck at damage in the
     * journal (zeroed bytes read as "not written yet"): said in the log, with the indices, instead of
     * waiting without a word while gateways go on appending. Only when idle and nothing was answered for a
     * whole interval, so it costs the hot path nothing.
     */
    private void checkForStall() {
        final long answeredNow = service.answered();
        if (answeredNow != answeredAtStallCheck) {
            answeredAtStallCheck = answeredNow;
            return;
        }
        final QueueGap gap = service.journalGap();
        if (gap != null && !gap.equals(reportedGap)) {
            log.log("error: the engine cannot read the journal past index %s: %s. Commands after it stay unanswered until the"
                + " journal file is restored from a copy (stop the gateways first); the engine keeps waiting", journalIndex(
                service.lastAnswered()), gap.describe());
        }
        reportedGap = gap;
    }

    /** At stop, on the engine thread once the command in hand is answered: the snapshot, the last line, the queues closed. */
    @Override
    public void onClose() {
        try {
            if (failed) {
                log.log("engine stopping after a failure: %d commands answered, last journal index %s; %s; no snapshot"
                    + " (the failed command may have changed part of the state; a restart recovers from the journal)",
                    service.answered(), journalIndex(service.lastAnswered()), rejectSummary());
            } else {
                String snapshotSaid;
                try {
                    final Path snapshot = service.snapshot();
                    snapshotSaid = snapshot == null ? "no snapshot (nothing answered yet)"
                        : String.format(Locale.ROOT, "snapshot %s written in %.2f ms", snapshot.getFileName(),
                            service.lastSnapshotNanos() / 1e6);
                } catch (final UncheckedIOException e) {
                    // Nothing answered is lost (the journal and events hold it all): a restart replays from an older snapshot.
                    log.log("error: the final snapshot FAILED: %s; nothing was left in its place, a restart recovers from an older"
                        + " snapshot and the journal", e.getMessage());
                    snapshotSaid = "final snapshot FAILED (see the error above)";
                }
                log.log("engine stopping: %d commands answered, last journal index %s; %s; %s", service.answered(),
                    journalIndex(service.lastAnswered()), rejectSummary(), snapshotSaid);
            }
        } finally {
            service.close();
            if (lock != null) {
                lock.release();
            }
        }
    }

    private void logStatus() {
        final long answered = service.answered();
        log.log("status: %d commands answered (%.0f/s over the last minute), last journal index %s; %s; %s",
            answered, (answered - answeredAtLastStatus) / 60.0, journalIndex(service.lastAnswered()), rejectSummary(),
            service.snapshotsWritten() == 0 ? "no snapshot written yet"
                : String.format(Locale.ROOT, "%d snapshots written, the last paused matching %.2f ms and took %.2f ms to write",
                    service.snapshotsWritten(), service.lastSnapshotNanos() / 1e6, service.lastSnapshotWriteNanos() / 1e6));
        answeredAtLastStatus = answered;
    }

    private static String journalIndex(final long index) {
        return index < 0 ? "none" : Long.toHexString(index);
    }

    private String rejectSummary() {
        final long[] counts = service.rejectCounts();
        final StringBuilder sb = new StringBuilder("accepted ").append(counts[0]);
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] > 0) {
                sb.append(", ").append(RejectReason.fromOrdinal(i)).append(' ').append(counts[i]);
            }
        }
        return sb.toString();
    }

}
