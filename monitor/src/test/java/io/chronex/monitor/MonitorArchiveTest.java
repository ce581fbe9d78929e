package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Side;
import io.chronex.engine.process.EngineService;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.replay.Admin;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A monitor started on a data directory whose first day was archived (bin/admin archive) shows the books the engine has,
 * orders still resting from the archived day included, and raises no false "books differ" alert: its books start from
 * the engine's snapshot instead of from the events left.
 */
class MonitorArchiveTest {
    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();
    private final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z"));
    private long nextOrderId = 1;

    @AfterEach
    void stop() {
        jvms.close();
    }

    @Test
    void booksStartFromTheSnapshotWhenTheFirstDaysAreArchived() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d")).withClock(clock);
        final EngineConfig config = EngineConfigFile.load(ProjectRoot.resolve("config/engine.yaml"));
        // Day 1: accounts 1 and 2 funded, a ladder of bids and asks that rests (orders from this day must still show later).
        append(data, day1());
        answer(data, config, true);
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        // Day 2: a sell that trades with day 1's best bid, a new bid; a snapshot, so day 1 may be archived.
        append(data, List.of(new Command().limit(2, 1, nextOrderId++, Side.SELL, 9_990, 3),
            new Command().limit(1, 1, nextOrderId++, Side.BUY, 9_950, 4)));
        answer(data, config, true);
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        append(data, List.of(new Command().limit(1, 2, nextOrderId++, Side.BUY, 2_490, 6)));
        answer(data, config, false);

        final String before = monitorOnce("before");
        assertTrue(before.contains("ACME"), before);
        final String archived = run(Admin.class.getName(), "archive", "--data-dir", data.root().toString(), "archive", "--before",
            "2026-11-21");
        assertTrue(archived.contains("RESULT archived=2 "), archived);
        assertFalse(Files.exists(data.root().resolve("events/20261120F.cq4")), "the first day is archived");

        final String after = monitorOnce("after");
        assertEquals(books(before), books(after), "the same books as before the archive:\n" + before + "\n" + after);
        assertFalse(after.contains("BOOKS DIFFER"), after);
        assertTrue(after.contains("not checked: the journal's days before it are archived"), after);
    }

    /** Deposits for accounts 1 and 2, then 10 bids of account 1 and 10 asks of account 2 in ACME, none crossing. */
    private List<Command> day1() {
        final List<Command> commands = new java.util.ArrayList<>();
        for (int asset = 1; asset <= 3; asset++) {
            commands.add(new Command().money(CommandType.DEPOSIT, 1, asset, 1_000_000_000_000L, asset));
            commands.add(new Command().money(CommandType.DEPOSIT, 2, asset, 1_000_000_000_000L, 10 + asset));
        }
        for (int i = 0; i < 10; i++) {
            commands.add(new Command().limit(1, 1, nextOrderId++, Side.BUY, 9_990 - i, 5 + i));
            commands.add(new Command().limit(2, 1, nextOrderId++, Side.SELL, 10_010 + i, 5 + i));
        }
        return commands;
    }

    private void append(final DataDirectory data, final List<Command> commands) {
        try (SingleChronicleQueue queue = data.commands()) {
            final ExcerptAppender appender = queue.createAppender();
            final Hops hops = new Hops();
            long n = 0;
            for (final Command c : commands) {
                hops.clear();
                hops.receiptEpochNanos = TimeUnit.MILLISECONDS.toNanos(clock.currentTimeMillis()) + n++ * 1_000L;
                CommandCodec.append(appender, c, hops);
            }
        }
    }

    /** The engine service answers everything there, as bin/engine would, and writes a snapshot if asked. */
    private static void answer(final DataDirectory data, final EngineConfig config, final boolean snapshot) {
        try (EngineService service = new EngineService(data, config)) {
            service.recordConfiguration(config, false);
            while (service.poll()) {
                // until every command there is answered
            }
            if (snapshot) {
                service.snapshot();
            }
        }
    }

    private String monitorOnce(final String name) throws Exception {
        return run(Monitor.class.getName(), "monitor-" + name, "--data-dir", tmp.resolve("d").toString(), "--once");
    }

    private String run(final String mainClass, final String name, final String... args) throws Exception {
        final Path log = tmp.resolve(name + ".log");
        final Process p = jvms.start(mainClass, List.of(args), log);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not end");
        final String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** The block's book lines (symbol, best bid, best ask, level counts), without the snapshot check's line. */
    private static String books(final String block) {
        return block.lines().dropWhile(l -> !l.startsWith("books ")).takeWhile(l -> l.startsWith("books ") || l.startsWith("     "))
            .filter(l -> !l.contains("snapshot")).collect(Collectors.joining("\n"));
    }
}
