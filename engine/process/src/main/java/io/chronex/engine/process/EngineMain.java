package io.chronex.engine.process;

import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.IdleStrategies;
import io.chronex.queues.EngineConfigFile;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.queues.DataDirectory;
import io.chronex.runtime.RunFiles;
import net.openhft.affinity.AffinityLock;
import org.agrona.concurrent.IdleStrategy;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** bin/engine: runs the engine service on a data directory until SIGTERM. */
public final class EngineMain {
    static final String USAGE = """
        Usage: bin/engine --data-dir DIR --config FILE [--idle backoff|yield|busy] [--cpu N] [--snapshot-every N]

        Runs the matching engine: tails DIR/commands (the journal), matches, and appends one result per
        command to DIR/events. On start it finds the last command answered, restores the newest good
        snapshot at or before it and replays the journal from there, so a restart after kill -9 answers
        every command exactly once.

          --data-dir DIR   the data directory (created if missing; default ./data)
          --config FILE    symbols, accounts and risk checks (YAML; see config/engine.yaml and docs/operating.md)
          --idle MODE      what the engine thread does when the journal is empty:
                             backoff  spin, then yield, then park up to 1 ms (default: leaves a small box usable)
                             yield    Thread.yield() in a loop: never sleeps, but gives the CPU to anything
                                      else runnable (low latency on a small box, at the cost of a busy CPU)
                             busy     spin without pause (lowest latency; give the engine a core of its own)
          --cpu N          pin the engine thread to CPU N (Java-Thread-Affinity); with --idle busy, keep
                           other work off that CPU (isolcpus/taskset). A CPU that cannot be had is a warning
          --snapshot-every N   write a snapshot to DIR/snapshots every N commands (default 1000000; 0 = only
                               on a SNAPSHOT command and at stop)
          --help           this text

        SIGTERM (or Ctrl-C) finishes the command in hand, writes a snapshot and exits 0. Logs go to standard output
        and DIR/engine.log: one line at start, one a minute, one at exit, with every reject reason counted. The pid
        is in DIR/engine.pid while it runs; a second engine on the same directory is refused.
        """;

    private EngineMain() {
    }

    public static void main(final String[] args) throws Exception {
        Path dataDir = Path.of("data");
        Path config = null;
        String idle = "backoff";
        long snapshotEvery = 1_000_000;
        int cpu = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--help", "-h" -> {
                    System.out.print(USAGE);
                    return;
                }
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--config" -> config = Path.of(value(args, ++i, "--config"));
                case "--idle" -> idle = value(args, ++i, "--idle");
                case "--cpu" -> {
                    final String value = value(args, ++i, "--cpu");
                    try {
                        cpu = Integer.parseInt(value);
                    } catch (final NumberFormatException e) {
                        cpu = -1;
                    }
                    if (cpu < 0 || cpu >= Runtime.getRuntime().availableProcessors()) {
                        fail("--cpu must be a CPU number from 0 to " + (Runtime.getRuntime().availableProcessors() - 1) + ", not '" + value + "'");
                    }
                }
                case "--snapshot-every" -> {
                    final String value = value(args, ++i, "--snapshot-every");
                    try {
                        snapshotEvery = Long.parseLong(value);
                    } catch (final NumberFormatException e) {
                        snapshotEvery = -1;
                    }
                    if (snapshotEvery < 0) {
                        fail("--snapshot-every needs a whole number of commands, not '" + value + "'");
                    }
                }
                default -> fail("unknown option " + args[i]);
            }
        }
        if (config == null) {
            fail("--config FILE is required (for example config/engine.yaml)");
        }
        if (!Files.isReadable(config)) {
            fail("cannot read config file " + config);
        }
        final IdleStrategy idleStrategy = IdleStrategies.byName(idle);
        if (idleStrategy == null) {
            fail("--idle must be " + IdleStrategies.NAMES + ", not '" + idle + "'");
        }
        final EngineConfig engineConfig;
        try {
            engineConfig = EngineConfigFile.load(config);
        } catch (final ConfigYaml.ConfigException e) {
            fail(e.getMessage());
            return;
        }
        final DataDirectory data;
        try {
            data = DataDirectory.open(dataDir);
            runFiles = RunFiles.start(data.root(), "engine");
        } catch (final IllegalStateException e) {
            fail(e.getMessage());
            return;
        }
        AffinityLock lock = null;
        if (cpu >= 0) {
            try {
                lock = AffinityLock.acquireLock(cpu);
                log("engine thread pinned: %s", lock.isAllocated() ? "CPU " + lock.cpuId() : "no (CPU " + cpu + " could not be reserved)");
            } catch (final RuntimeException | LinkageError e) {
                log("warning: cannot pin the engine thread to CPU %d: %s", cpu, e);
            }
        }
        try {
            run(data, engineConfig, idleStrategy, idle, snapshotEvery);
        } finally {
            if (lock != null) {
                lock.release();
            }
            runFiles.stop();
        }
        // Chronicle may leave background threads behind; the queues are closed, so leave now.
        System.exit(0);
    }

    private static void run(final DataDirectory data, final EngineConfig config, final IdleStrategy idle, final String idleName,
                            final long snapshotEvery) {
        final EngineService service;
        try {
            service = new EngineService(data, config, snapshotEvery, message -> log("warning: %s", message), message -> log("%s", message));
        } catch (final IllegalStateException e) {
            fail(e.getMessage());
            return;
        }
        log("engine started (JVM up %d ms): chronex %s, Java %s, data dir %s, idle %s; recovered through journal index %s in %.1f ms (%s, %d commands replayed in %.1f ms%s)",
            java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime(),
            version(), System.getProperty("java.version"), data.root(), idleName,
            service.recoveredThrough() < 0 ? "none (fresh start)" : Long.toHexString(service.recoveredThrough()),
            service.recoveryNanos() / 1e6, service.restoredSnapshot() == null ? "no snapshot" : "from " + service.restoredSnapshot().getFileName(),
            service.replayedCommands(), service.replayNanos() / 1e6,
            service.replayedCommands() < 1000 ? "" : String.format(Locale.ROOT, ", %.2f M commands/s",
                service.replayedCommands() * 1e3 / Math.max(1, service.replayNanos())));

        // TERM and INT end the loop after the command in hand; the JVM then exits 0 (its default
        // handling would exit 143 and race the loop for the queues).
        final AtomicBoolean running = new AtomicBoolean(true);
        final SignalHandler stop = signal -> running.set(false);
        Signal.handle(new Signal("TERM"), stop);
        Signal.handle(new Signal("INT"), stop);

        long nextStatus = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        long answeredAtLastStatus = 0;
        try {
            int checks = 0;
            // A volatile read per loop (a plain load on x86): the loop takes no lock.
            while (running.get()) {
                if ((++checks & 1023) == 0) {
                    final long now = System.nanoTime();
                    if (now >= nextStatus) {
                        final long answered = service.answered();
                        log("status: %d commands answered (%.0f/s over the last minute), last journal index %s; %s; %s",
                            answered, (answered - answeredAtLastStatus) / 60.0, journalIndex(service.lastAnswered()), rejectSummary(service),
                            service.snapshotsWritten() == 0 ? "no snapshot written yet"
                                : String.format(Locale.ROOT, "%d snapshots written, the last paused matching %.2f ms and took %.2f ms to write",
                                    service.snapshotsWritten(), service.lastSnapshotNanos() / 1e6, service.lastSnapshotWriteNanos() / 1e6));
                        answeredAtLastStatus = answered;
                        nextStatus = now + TimeUnit.MINUTES.toNanos(1);
                    }
                }
                idle.idle(service.poll() ? 1 : 0);
            }
            final java.nio.file.Path snapshot = service.snapshot();
            log("engine stopping: %d commands answered, last journal index %s; %s; %s", service.answered(),
                journalIndex(service.lastAnswered()), rejectSummary(service),
                snapshot == null ? "no snapshot (nothing answered yet)"
                    : String.format(Locale.ROOT, "snapshot %s written in %.2f ms", snapshot.getFileName(), service.lastSnapshotNanos() / 1e6));
        } finally {
            service.close();
        }
    }

    private static String journalIndex(final long index) {
        return index < 0 ? "none" : Long.toHexString(index);
    }

    private static String rejectSummary(final EngineService service) {
        final long[] counts = service.rejectCounts();
        final StringBuilder sb = new StringBuilder("accepted ").append(counts[0]);
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] > 0) {
                sb.append(", ").append(RejectReason.fromOrdinal(i)).append(' ').append(counts[i]);
            }
        }
        return sb.toString();
    }

    private static String version() {
        final String version = EngineMain.class.getPackage().getImplementationVersion();
        return version == null ? "(development build)" : version;
    }

    private static RunFiles runFiles;

    /** To standard output and DIR/engine.log once the data directory is open. */
    private static void log(final String format, final Object... args) {
        if (runFiles != null) {
            runFiles.log(format, args);
        } else {
            System.out.println(java.time.Instant.now() + " " + String.format(Locale.ROOT, format, args));
            System.out.flush();
        }
    }

    private static String value(final String[] args, final int index, final String option) {
        if (index >= args.length) {
            fail(option + " needs a value");
        }
        return args[index];
    }

    private static void fail(final String message) {
        System.err.println("engine: " + message);
        System.err.println("Try 'bin/engine --help'.");
        System.exit(2);
    }
}
