package io.chronex.engine.process;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.replay.audit.Audit;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Journals for the audit tools' tests: a seeded random stream on the shipped configuration (its first commands fund the
 * accounts it trades for), answered by the real engine service.
 */
final class AuditJournals {
    static final Path CONFIG = ProjectRoot.resolve("config/engine.yaml");
    /** The receipt time of command i (1-based) is START + i µs: distinct, rising, at microsecond resolution. */
    static final long START_EPOCH_NANOS = 1_795_000_000_000_000_000L;

    /** The assets of the shipped configuration: USD (1), ACME (2), GLOBEX (3). */
    static final int ASSETS = 3;
    /**
     * The first commands of every journal (references 1..9): each of accounts 1..3 gets {@link #FUNDS} of every asset of the
     * shipped configuration (USD in cents, ACME and GLOBEX in shares), so that its orders pass the FUNDS check.
     */
    static final int FUNDING_COMMANDS = 9;
    /** More than every order of a stream could hold at once: 10,000,000,000.00 USD, 10^12 shares. */
    static final long FUNDS = 1_000_000_000_000L;

    private AuditJournals() {
    }

    /**
     * Appends {@code count} commands (seeded): the {@link #FUNDING_COMMANDS} deposits funding accounts 1..3, then orders,
     * cancels and replaces in ACME (1) and GLOBEX (2) for accounts 1..3, and after the middle one an excerpt that is not a
     * command (answered as malformed).
     */
    static DataDirectory write(final DataDirectory data, final int count, final long seed) {
        return write(data, count, seed, 1_000L);
    }

    /** The same, command i received at START + i × {@code spacingNanos}. */
    static DataDirectory write(final DataDirectory data, final int count, final long seed, final long spacingNanos) {
        final Random random = new Random(seed);
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 1; i <= count; i++) {
                final long account = 1 + random.nextInt(3);
                final int symbol = 1 + random.nextInt(2);
                final long mid = symbol == 1 ? 10_000 : 2_500;
                final int kind = random.nextInt(10);
                if (kind < 6) {
                    c.limit(account, symbol, i, random.nextBoolean() ? Side.BUY : Side.SELL, mid - 10 + random.nextInt(21),
                        1 + random.nextInt(50));
                } else if (kind < 8) {
                    c.cancel(account, 1 + random.nextInt(i));
                } else {
                    c.replace(account, 1 + random.nextInt(i), i, mid - 10 + random.nextInt(21), 1 + random.nextInt(50));
                }
                if (i <= FUNDING_COMMANDS) {
                    // In place of the seed's command i (its random draws made all the same, so that every later command is
                    // the one the seed gives there): a deposit for account 1..3 (in turn) of asset 1..3, reference i.
                    c.money(CommandType.DEPOSIT, 1 + (i - 1) / ASSETS, 1 + (i - 1) % ASSETS, FUNDS, i);
                }
                hops.clear();
                hops.gatewayAppendNanos = System.nanoTime();
                hops.receiptEpochNanos = START_EPOCH_NANOS + i * spacingNanos;
                CommandCodec.append(appender, c, hops);
                if (i == count / 2) {
                    try (DocumentContext dc = appender.writingDocument()) {
                        dc.wire().bytes().writeLong(0xBAD_C0DEL); // not a command: answered as malformed
                    }
                }
            }
        }
        return data;
    }

    /** Has the engine service answer every command, as bin/engine would (no snapshot asked for). */
    static DataDirectory answer(final DataDirectory data) throws Exception {
        return answer(data, Long.MAX_VALUE, false);
    }

    /**
     * Starts the engine service (recovering from what is there, as a restarted bin/engine does), has it
     * answer up to {@code count} more commands (fewer if the journal ends), then, if asked, write a
     * snapshot there and then, on this thread: snapshots at known places, not wherever the background
     * writer gets to.
     */
    static DataDirectory answer(final DataDirectory data, final long count, final boolean snapshot) throws Exception {
        return answer(data, count, snapshot, EngineService.DEFAULT_CHECKPOINT_EVERY);
    }

    /** As above, with a checkpoint (the state hash) in the result of every {@code checkpointEvery}-th command applied. */
    static DataDirectory answer(final DataDirectory data, final long count, final boolean snapshot, final long checkpointEvery)
        throws Exception {
        try (EngineService service = new EngineService(data, EngineConfigFile.load(CONFIG), 0, checkpointEvery, warning -> { },
            message -> { })) {
            int idle = 0;
            while (idle < 1_000 && service.answered() < count) {
                idle = service.poll() ? 0 : idle + 1;
            }
            if (snapshot) {
                service.snapshot();
            }
        }
        return data;
    }

    /** Runs bin/audit with these arguments, checks its exit code and returns what it printed. */
    static String audit(final int expectedExit, final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(argv, out);
        }
        final String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, exit, output);
        return output;
    }

    /** An engine core that applied the journal's first {@code n} excerpts itself (malformed ones skipped, as the engine does). */
    static MatchingEngine engineAfter(final DataDirectory data, final long n) throws Exception {
        final MatchingEngine engine = new MatchingEngine(EngineConfigFile.load(CONFIG));
        final Command c = new Command();
        final Hops hops = new Hops();
        final Result r = new Result();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            for (long i = 0; i < n; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new AssertionError("the journal has fewer than " + n + " excerpts");
                    }
                    if (CommandCodec.read(dc.wire().bytes(), c, hops) == DecodeStatus.OK) {
                        engine.apply(c, r);
                    }
                }
            }
        }
        return engine;
    }

    /** The journal index of the journal's {@code n}-th excerpt (1-based). */
    static long journalIndex(final DataDirectory data, final long n) {
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            for (long i = 1; ; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new AssertionError("the journal has fewer than " + n + " excerpts");
                    }
                    if (i == n) {
                        return dc.index();
                    }
                }
            }
        }
    }
}
