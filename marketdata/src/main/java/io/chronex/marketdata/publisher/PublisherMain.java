package io.chronex.marketdata.publisher;

import io.chronex.marketdata.FeedConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.JournalConfig;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import io.chronex.queues.book.Books;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.Tool;

import java.nio.file.Path;

/** bin/marketdata: publishes the events queue's market data on the binary feed until SIGTERM. */
public final class PublisherMain {
    static final String USAGE = """
        Usage: bin/marketdata [--config FILE] [--data-dir DIR] [--engine-config FILE] [--idle backoff|yield|busy]

        Publishes the binary market-data feed (docs/marketdata.md): reads DIR/events (read-only) and sends, over
        Aeron UDP, one SBE incremental message per excerpt that changed a level, traded or halted/resumed a symbol
        (sequence numbers 1, 2, ... in the order of the queue), and every symbol's book on the snapshot channel once
        per cycle. At start (also after a kill -9) it rebuilds the books and the sequence from its checkpoint
        (DIR/marketdata/checkpoint, written at start, at the first excerpt of each day and at a clean stop) and the
        excerpts after it, or from the queue's beginning when there is none (refused when days of the events are
        archived), sends again from 1024 incrementals before the last one the previous run sent, and carries on:
        no sequence number ever names another message. Starts before or after the engine; after a kill -9 a
        restart waits up to 10 s for the dead media driver's heartbeat to go stale.

          --config FILE         the feed's channels and settings (default config/marketdata.yaml)
          --data-dir DIR        the data directory whose events queue to publish (default ./data)
          --engine-config FILE  the symbols (default: engineConfig in the feed's configuration); once DIR's journal
                                records the engine's configuration, the journal's symbols are used, and a FILE that
                                differs from them is refused (exit 2)
          --idle MODE           backoff (default: the loop, which also runs its media driver, wakes about once per
                                pauseMicros of the feed's configuration unless busy, to stay off a small box's CPUs),
                                yield or busy
          --help                this text

        Its status (for bin/monitor) is in DIR/marketdata/status; logs go to standard output and
        DIR/marketdata/marketdata.log, the pid to DIR/marketdata/marketdata.pid.
        """;

    private PublisherMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("marketdata", USAGE, () -> run(argv));
    }

    private static int run(final String[] argv) throws Exception {
        final Args args = Args.parse(argv, "--config", "--data-dir", "--engine-config", "--idle");
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final FeedConfig config = FeedConfig.load(args.path("--config", Path.of("config/marketdata.yaml")));
        final Path engineConfig = args.path("--engine-config", config.engineConfig());
        final DataDirectory data = DataDirectory.openReadOnly(args.path("--data-dir", Path.of("data")));
        // The journal's configuration when it records one (the file must then be the same), else the file.
        final var symbols = JournalConfig.ofDirectory(data).forTool(data, engineConfig).symbols();
        final RunFiles run;
        try {
            run = RunFiles.start(data.root().resolve("marketdata"), "marketdata");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        if (data.hasQueue("events")) {
            // A start the checkpoint rules refuse (days archived, none to start from) is refused here, before anything opens;
            // the agent's start looks again (the events queue may appear only later).
            try (SingleChronicleQueue events = data.events()) {
                PublisherCheckpoint.startingPoint(data.root().resolve("marketdata").resolve(ReaderCheckpoint.FILE), data.root(), events,
                    new Books(), line -> { });
            } catch (final IllegalStateException e) {
                run.stop();
                throw new Args.UsageException(e.getMessage());
            }
        }
        run.log("marketdata %s: publishing %s for %d symbols (%s)", Tool.version(), data.root().resolve("events"), symbols.size(),
            engineConfig);
        try {
            return DutyCycle.run("marketdata", () -> new PublisherAgent(config, data, symbols, line -> run.log("%s", line)),
                PublisherAgent.idleStrategy(idleName, config), message -> run.log("%s", message));
        } finally {
            run.stop();
        }
    }
}
