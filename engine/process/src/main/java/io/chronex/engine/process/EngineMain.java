package io.chronex.engine.process;

import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.StorageGuard;
import io.chronex.runtime.Tool;

import java.nio.file.Path;

/** bin/engine: runs the engine service on a data directory until SIGTERM. */
public final class EngineMain {
    static final String USAGE = """
        Usage: bin/engine --data-dir DIR --config FILE [--apply-config-change] [--idle backoff|yield|busy] [--cpu N]
                          [--snapshot-every N] [--checkpoint-every N] [--storage-reserve SIZE]

        Runs the matching engine: tails DIR/commands (the journal), matches, and appends one result per
        command to DIR/events. On start it finds the last command answered, restores the newest good
        snapshot at or before it and replays the journal from there, so a restart after kill -9 answers
        every command exactly once.

          --data-dir DIR   the data directory (created if missing; default ./data)
          --config FILE    symbols, accounts and risk checks (YAML; see config/engine.yaml and docs/operating.md).
                           The journal records it at the first start; later starts must give the same one, or
          --apply-config-change  to record the file's differences as a change in the journal, taken when the engine
                           reaches it (new symbols and accounts, bands, reference prices, limits, risk checks;
                           docs/operating.md). Without it a different file is refused with the differences listed
          --idle MODE      what the engine thread does when the journal is empty:
                             backoff  spin, then yield, then park up to 1 ms (default: leaves a small box usable)
                             yield    Thread.yield() in a loop: never sleeps, but gives the CPU to anything
                                      else runnable (low latency on a small box, at the cost of a busy CPU)
                             busy     spin without pause (lowest latency; give the engine a core of its own)
          --cpu N          pin the engine thread to CPU N (Java-Thread-Affinity); with --idle busy, keep
                           other work off that CPU (isolcpus/taskset). A CPU that cannot be had is a warning
          --snapshot-every N   write a snapshot to DIR/snapshots every N commands (default 1000000; 0 = only
                               on a SNAPSHOT command and at stop)
          --checkpoint-every N the result of every N-th command the engine applies also carries the engine's
                               state hash (a checkpoint bin/audit verify compares with its own; default 1000000;
                               0 = none). Each costs the engine thread a copy and hash of its state (docs/audit.md)
          --storage-reserve SIZE  free space to keep on the data directory's filesystem (default 256MiB). Below a
                               quarter of it the engine reads no further command until space returns, and goes on
                               by itself (a write past a full disk would kill it); gateways refuse new orders below
                               the whole reserve, so the engine normally never gets there
          --help           this text

        SIGTERM (or Ctrl-C) finishes the command in hand, writes a snapshot and exits 0. Logs go to standard output
        and DIR/engine.log: one line at start, one a minute, one at exit, with every reject reason counted. The pid
        is in DIR/engine.pid while it runs; a second engine on the same directory is refused (an OS lock on DIR/engine.lock).
        """;

    private EngineMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("engine", USAGE, () -> run(argv));
    }

    /** {@link #main} without exiting: the exit code (tests of what is refused before the engine starts). */
    static int exitCode(final String[] argv) {
        return Tool.exitCode("engine", USAGE, () -> run(argv));
    }

    /** Parses, then recovers and runs the engine's loop on its thread until SIGTERM or Ctrl-C; returns the exit code. */
    private static int run(final String[] argv) throws Exception {
        final Args args = Args.parse(argv, java.util.Set.of("--data-dir", "--config", "--idle", "--cpu", "--snapshot-every",
            "--checkpoint-every", "--storage-reserve"), java.util.Set.of("--apply-config-change"), 0);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final int cpu = args.intNumber("--cpu", -1, 0, Runtime.getRuntime().availableProcessors() - 1);
        final long snapshotEvery = args.number("--snapshot-every", 1_000_000, 0, Long.MAX_VALUE);
        final long checkpointEvery = args.number("--checkpoint-every", EngineService.DEFAULT_CHECKPOINT_EVERY, 0, Long.MAX_VALUE);
        final long storageReserve = StorageGuard.parseSize(args.string("--storage-reserve", "256MiB"));
        final EngineConfig config = EngineConfigFile.load(args.readableFile("--config", "config/engine.yaml"));
        final DataDirectory data = DataDirectory.openForTool(args.path("--data-dir", Path.of("data")));
        final RunFiles run;
        try {
            run = RunFiles.start(data.root(), "engine");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try {
            final boolean applyChange = args.flag("--apply-config-change");
            return DutyCycle.run("engine", () -> EngineAgent.open(data, config, applyChange, snapshotEvery, checkpointEvery,
                    storageReserve, idleName, cpu, run),
                IdleStrategies.byName(idleName), message -> run.log("%s", message));
        } finally {
            run.stop();
        }
    }
}
