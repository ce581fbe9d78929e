package io.chronex.bench;

import io.chronex.api.Command;
import io.chronex.engine.process.EngineService;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import io.chronex.workload.ExchangeCoreCsv;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * bin/bench-audit's journal: exchange-core's ec-1M stream N times over in one data directory, each
 * copy on a symbol of its own (40000, 40001, ...) and with accounts of its own (the copy's number
 * times 1,000,000 added), so the copies trade exactly as ec-1M does and never touch each other; then
 * answered by the engine service as bin/engine answers, with a snapshot every 1,000,000 commands.
 */
public final class BigJournal {
    static final String USAGE = """
        Usage: BigJournal --data-dir DIR [--copies N] [--rate R]

        Writes DIR/engine.yaml (N symbols, risk off, accounts created on first use), appends ec-1M N
        times (default 10) to DIR/commands, has the engine answer every command into DIR/events with a
        snapshot every 1,000,000, and prints RESULT commands=

          --rate R   receipt times as if the commands had come in at R a second from now on (350: ten
                     million over a trading day of 8 hours), instead of as they are appended (about a
                     million a second): a journal of a day's pace for the time-window queries. The hop
                     timestamps stay the real ones.
        """;

    private BigJournal() {
    }

    public static void main(final String[] argv) {
        Tool.run("big-journal", USAGE, () -> {
            final Args args = Args.parse(argv, "--data-dir", "--copies", "--rate");
            final int copies = args.intNumber("--copies", 10, 1, 100);
            final long rate = args.number("--rate", 0, 1, 1_000_000_000);
            final Path dir = Path.of(args.required("--data-dir", "/tmp/chronex-10m"));
            if (Files.exists(dir.resolve("commands"))) {
                throw new Args.UsageException(dir + " already has a journal; give a new directory");
            }
            final StringBuilder yaml = new StringBuilder("# ec-1M, " + copies + " copies: one symbol each, risk off.\n"
                + "riskChecks: none\ncreateAccountsOnFirstUse: true\nsymbols:\n");
            for (int i = 0; i < copies; i++) {
                yaml.append(String.format(Locale.ROOT, "  - {id: %d, name: EC-%d, priceScale: 1, tickSize: 1, lotSize: 1}%n", 40000 + i,
                    40000 + i));
            }
            final DataDirectory data = DataDirectory.open(dir); // first: it refuses a directory with files of another kind in it
            final Path config = Files.writeString(dir.resolve("engine.yaml"), yaml);
            final Path stream = EngineBench.DEFAULT_FILE;
            long appended = 0;
            final long start = System.nanoTime();
            final long startEpochNanos = System.currentTimeMillis() * 1_000_000L;
            for (int i = 0; i < copies; i++) {
                appended += append(data, ExchangeCoreCsv.load(stream, 40000 + i), i * 1_000_000L, rate, startEpochNanos, appended);
            }
            System.out.printf(Locale.ROOT, "appended %,d commands in %.1f s%n", appended, (System.nanoTime() - start) / 1e9);
            final long answering = System.nanoTime();
            try (EngineService service = new EngineService(data, EngineConfigFile.load(config), 1_000_000, System.err::println)) {
                int idle = 0;
                while (idle < 1_000) {
                    idle = service.poll() ? 0 : idle + 1;
                }
                service.snapshot();
                System.out.printf(Locale.ROOT, "answered %,d commands in %.1f s%n", service.answered(),
                    (System.nanoTime() - answering) / 1e9);
            }
            System.out.println("RESULT commands=" + appended + " config=" + config);
            return 0;
        });
    }

    /**
     * One copy, the way bin/inject appends, its accounts moved by accountOffset; receipt times as it appends, or with
     * {@code rate} (not 0) those of commands coming in at that rate from {@code startEpochNanos}, {@code before} having come first.
     */
    private static long append(final DataDirectory data, final ExchangeCoreCsv stream, final long accountOffset, final long rate,
                               final long startEpochNanos, final long before) {
        final Command command = new Command();
        final Hops hops = new Hops();
        final long epochOffset = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int row = 0; row < stream.size(); row++) {
                final long read = System.nanoTime();
                stream.commandAt(row, command);
                command.account += accountOffset;
                hops.clear();
                hops.gatewayReadNanos = read;
                hops.receiptEpochNanos = rate == 0 ? epochOffset + read
                    : startEpochNanos + (long) ((before + row) * (1e9 / rate));
                CommandCodec.append(appender, command, hops);
            }
        }
        return stream.size();
    }
}
