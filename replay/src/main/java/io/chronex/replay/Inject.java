package io.chronex.replay;

import io.chronex.api.Command;
import io.chronex.runtime.StorageGuard;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/** bin/inject: appends an exchange-core-format CSV to the commands journal the way a gateway would. */
public final class Inject {
    static final String USAGE = """
        Usage: bin/inject --data-dir DIR [--rate R] [--symbol ID] FILE

        Appends every command of an exchange-core-format CSV (plain or .gz; see
        workloads/ec-1M/README.md) to DIR/commands with the same schema and timestamps a
        gateway writes (gateway id 0), then prints 'RESULT appended=N'.

          --data-dir DIR   the data directory (created if missing; default ./data)
          --rate R         commands per second, paced from the intended send times (default: as fast as possible)
          --symbol ID      symbol id for the stream's commands (default 40000, as config/exchange-core-bench.yaml)
          --storage-reserve SIZE  stop (exit 1, saying how many were appended) before free space on DIR's
                           filesystem falls below SIZE, as a gateway stops taking orders there (default 256MiB)
          --help           this text
        """;

    private Inject() {
    }

    public static void main(final String[] argv) {
        Tool.run("inject", USAGE, () -> {
            final Args args = Args.parse(argv, Set.of("--data-dir", "--rate", "--symbol", "--storage-reserve"), Set.of(), 1);
            final long reserve = StorageGuard.parseSize(args.string("--storage-reserve", "256MiB"));
            final long rate = args.number("--rate", 0, 1, Long.MAX_VALUE);
            final int symbol = args.intNumber("--symbol", 40000, 1, Integer.MAX_VALUE);
            final Path file = args.readableOperand(0, "FILE", null);
            final DataDirectory data = DataDirectory.openForTool(args.path("--data-dir", Path.of("data")));
            final ExchangeCoreCsv stream = ExchangeCoreCsv.load(file, symbol);
            final long start = System.nanoTime();
            final long appended = append(data, stream, rate, StorageGuard.forDirectory(data.root(), reserve));
            final double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "appended %,d commands to %s in %.2f s (%.0f/s)%n", appended, data.root().resolve("commands"),
                seconds, appended / seconds);
            System.out.println("RESULT appended=" + appended);
            if (appended < stream.size()) {
                throw new Tool.Failure("stopped after " + appended + " of " + stream.size() + " commands: free space below the storage"
                    + " reserve on " + data.root());
            }
            return 0;
        });
    }

    /** Appends the whole stream; paced at rate commands per second when rate > 0. */
    public static long append(final DataDirectory data, final ExchangeCoreCsv stream, final long rate) {
        return append(data, stream, rate, null);
    }

    /** The same, stopping before free space falls below the guard's reserve (null: no guard); returns how many were appended. */
    public static long append(final DataDirectory data, final ExchangeCoreCsv stream, final long rate, final StorageGuard storage) {
        final Command command = new Command();
        final Hops hops = new Hops();
        final long start = System.nanoTime();
        final long epochOffset = System.currentTimeMillis() * 1_000_000L - start;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int row = 0; row < stream.size(); row++) {
                if (rate > 0) {
                    final long intended = start + row * 1_000_000_000L / rate;
                    while (System.nanoTime() < intended) {
                        Thread.onSpinWait();
                    }
                }
                final long read = System.nanoTime();
                if (storage != null && storage.level(read) != StorageGuard.Level.OK) {
                    return row;
                }
                stream.commandAt(row, command);
                hops.gatewayReadNanos = read;
                hops.receiptEpochNanos = epochOffset + read;
                CommandCodec.append(appender, command, hops);
                if (storage != null) {
                    storage.wrote(CommandCodec.LENGTH + Integer.BYTES); // the excerpt and its header
                }
            }
        }
        return stream.size();
    }
}
