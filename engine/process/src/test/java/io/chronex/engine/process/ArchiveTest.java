package io.chronex.engine.process;

import io.chronex.api.Command;
import io.chronex.api.Side;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.HistoryView;
import io.chronex.queues.Hops;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.replay.JournalSummary;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/admin archive on a journal of three days, each answered on its day: refused while a day before --before is needed by
 * the engine's newest snapshot or a gateway serves the directory; then the first day leaves (compressed) and bin/audit
 * order, run as bin/audit runs, still answers for orders of that day exactly as before; the engine, restarted with the
 * archive out of reach, killed with -9 and restarted again, loses and repeats nothing; without a snapshot past the
 * archived day it refuses to start instead of recovering from a journal that has lost its first day.
 */
class ArchiveTest {
    @TempDir
    Path tmp;
    /** 2026-11-20 as a FAST_DAILY cycle. */
    private static final long FIRST_DAY = java.time.LocalDate.parse("2026-11-20").toEpochDay();
    private final ChildJvm jvms = new ChildJvm();
    private final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z"));

    @AfterEach
    void stopEverything() {
        jvms.killAll();
    }

    /** {@code count} buy and sell orders of accounts 1..3 in ACME around 100.00, received at the queue clock's time. */
    private void orders(final DataDirectory data, final int day, final int count) {
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            final Hops hops = new Hops();
            final Command c = new Command();
            for (int i = 0; i < count; i++) {
                hops.clear();
                hops.receiptEpochNanos = TimeUnit.MILLISECONDS.toNanos(clock.currentTimeMillis()) + i * 1_000L;
                CommandCodec.append(appender, c.limit(1 + i % 3, 1, day * 100_000L + i, i % 2 == 0 ? Side.BUY : Side.SELL,
                    9_990 + i % 21, 1 + i % 7), hops);
            }
        }
    }

    /** The engine service answers the day's commands as bin/engine would (recording its configuration first), then a snapshot. */
    private static void answerDay(final DataDirectory data, final boolean snapshot) throws Exception {
        final io.chronex.api.EngineConfig config = EngineConfigFile.load(AuditJournals.CONFIG);
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

    /**
     * Refused while the engine's newest snapshot, a gateway without a checkpoint or one whose checkpoint is on the first day
     * needs it; a dry run once nothing does lists both first days.
     */
    private void refusedUntilNothingNeedsTheFirstDay(final DataDirectory data, final String admin) throws Exception {
        final String dir = data.root().toString();
        // The newest snapshot is on 2026-11-21: that day must stay, and with it the refusal says what would do.
        final String refused = run(admin, 2, "refused-snapshot", "--data-dir", dir, "archive", "--before", "2026-11-22");
        assertTrue(refused.contains("newest snapshot") && refused.contains("bin/admin --data-dir DIR snapshot"), refused);
        Files.createDirectories(data.root().resolve("gateways/1/outbound"));
        final String gateway = run(admin, 2, "refused-gateway", "--data-dir", dir, "archive", "--before", "2026-11-21");
        assertTrue(gateway.contains("gateway 1 served") && gateway.contains("it has none"), gateway);
        // A gateway's checkpoint on the first day holds that day back; one on the second lets it go.
        gatewayCheckpointOn(data, FIRST_DAY);
        final String early = run(admin, 2, "refused-checkpoint", "--data-dir", dir, "archive", "--before", "2026-11-21");
        assertTrue(early.contains("on or after the day of gateway 1's checkpoint"), early);
        gatewayCheckpointOn(data, FIRST_DAY + 1);
        final String dry = run(admin, 0, "dry-run", "--data-dir", dir, "archive", "--before", "2026-11-21", "--dry-run");
        assertTrue(dry.contains("RESULT would_archive=2"), dry);
        Files.delete(data.root().resolve("gateways/1/" + ReaderCheckpoint.FILE));
        Files.delete(data.root().resolve("gateways/1/outbound"));
        Files.delete(data.root().resolve("gateways/1"));
        Files.delete(data.root().resolve("gateways"));
    }

    /** gateways/1/checkpoint as a gateway takes it on that day: through the day's last events excerpt and journal command. */
    private static void gatewayCheckpointOn(final DataDirectory data, final long day) throws Exception {
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final long command = lastOfDay(commands, day);
            final long event = lastOfDay(events, day);
            ReaderCheckpoint.write(data.root().resolve("gateways/1/" + ReaderCheckpoint.FILE), ReaderCheckpoint.header(
                ReaderCheckpoint.GATEWAY, 1, commands, command, events, event, 0), new byte[0]);
        }
    }

    private static long lastOfDay(final SingleChronicleQueue queue, final long day) {
        long last = -1;
        try (ExcerptTailer tailer = queue.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return last;
                    }
                    if (ArchivedCycles.cycleOfIndex(dc.index()) == day) {
                        last = dc.index();
                    }
                }
            }
        }
    }

    /** Runs a main class as its own process, as its bin/ script would, and returns its exit code and output. */
    private String run(final String mainClass, final int expectedExit, final String name, final String... args) throws Exception {
        final Path log = tmp.resolve(name + ".log");
        final Process process = jvms.start(mainClass, List.of(args), log);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), name + " did not end");
        final String output = Files.readString(log);
        assertEquals(expectedExit, process.exitValue(), output);
        return output;
    }

    private static List<String> files(final Path dir) throws Exception {
        try (Stream<Path> each = Files.list(dir)) {
            return each.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cq4") || n.endsWith(".cq4.gz")).sorted().toList();
        }
    }

    /** The events excerpts so far. */
    private static long results(final DataDirectory data) {
        try (SingleChronicleQueue events = data.events(); ExcerptTailer tailer = events.createTailer()) {
            long n = 0;
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return n;
                    }
                    n++;
                }
            }
        }
    }

    @Test
    void archivedDaysStillAnswerAuditOrderAndRecoveryNeverReadsThem() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d")).withClock(clock);
        final String dir = data.root().toString();
        AuditJournals.write(data, 300, 7);                          // 2026-11-20: funding, then orders
        answerDay(data, true);
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        orders(data, 2, 300);                                       // 2026-11-21
        answerDay(data, true);
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        orders(data, 3, 300);                                       // 2026-11-22, answered, no snapshot
        answerDay(data, false);
        assertEquals(List.of("20261120F.cq4", "20261121F.cq4", "20261122F.cq4"), files(data.root().resolve("commands")));
        assertEquals(List.of("20261120F.cq4", "20261121F.cq4", "20261122F.cq4"), files(data.root().resolve("events")));
        final String[] before = new String[4];
        for (int order = 1; order <= before.length; order++) {
            before[order - 1] = AuditJournals.audit(0, "order", "--data-dir", dir, "--order-id", Integer.toString(order));
            assertTrue(before[order - 1].contains("journal 0x" + Long.toHexString(FIRST_DAY << 32).substring(0, 5)),
                "accepted on the first day: " + before[order - 1]);
        }
        final JournalConfig.Entry initial = JournalConfig.ofDirectory(data).first();
        final String admin = io.chronex.replay.Admin.class.getName();

        refusedUntilNothingNeedsTheFirstDay(data, admin);
        assertEquals(3, files(data.root().resolve("commands")).size(), "a dry run moves nothing");

        final String archived = run(admin, 0, "archive", "--data-dir", dir, "archive", "--before", "2026-11-21", "--compress");
        assertTrue(archived.contains("RESULT archived=2 "), archived);
        assertEquals(List.of("20261121F.cq4", "20261122F.cq4"), files(data.root().resolve("commands")));
        assertEquals(List.of("20261121F.cq4", "20261122F.cq4"), files(data.root().resolve("events")));
        final Path archive = data.root().resolve("archive");
        assertEquals(List.of("20261120F.cq4.gz"), files(archive.resolve("commands")));
        assertEquals(initial, JournalConfig.ofDirectory(DataDirectory.openReadOnly(data.root())).first(),
            "the configuration the history starts under, although its day is archived");

        // While a reader holds a view of the history, no archive run may delete a day under it.
        try (HistoryView reading = HistoryView.open(data.root())) {
            assertTrue(reading.includesArchive());
            final String busy = run(admin, 2, "refused-reader", "--data-dir", dir, "archive", "--before", "2026-11-21");
            assertTrue(busy.contains("or a bin/audit or bin/journal-summary reading the history of"), busy);
        }

        // Done when: bin/audit order, run as bin/audit runs, answers for the archived day exactly as before.
        for (int order = 1; order <= before.length; order++) {
            // The first as its own process, as bin/audit runs (the view's temporary directory made and removed there); the rest
            // in this JVM, which reads the archive the same way at less cost to the suite.
            final String after = order == 1 ? run(io.chronex.replay.audit.Audit.class.getName(), 0, "audit-order-" + order, "order",
                "--data-dir", dir, "--order-id", Integer.toString(order))
                : AuditJournals.audit(0, "order", "--data-dir", dir, "--order-id", Integer.toString(order));
            assertTrue(after.contains(before[order - 1].strip()), "order " + order + " before:\n" + before[order - 1] + "after:\n" + after);
        }
        // What the tools say names the data directory, not the temporary view they read the archive through.
        final String none = AuditJournals.audit(0, "order", "--data-dir", dir, "--order-id", "987654321");
        assertTrue(none.contains("no order 987654321 was accepted in " + data.root()), none);
        final String verify = AuditJournals.audit(0, "verify", "--data-dir", dir, "--threads", "1");
        assertTrue(verify.contains(" mismatches=0 first_mismatch_index=- unanswered=0"), verify);

        // Recovery never needs the archive: with it out of reach the engine restarts, is killed, restarts, answers everything.
        final Path away = Files.move(archive, tmp.resolve("archive-away"));
        final Path config = AuditJournals.CONFIG;
        Process engine = jvms.start(EngineMain.class.getName(), List.of("--data-dir", dir, "--config", config.toString()),
            tmp.resolve("engine-1.log"));
        final DataDirectory now = DataDirectory.open(data.root());
        final long answeredBefore = results(now);
        orders(now, 4, 200);
        final Process first = engine;
        Await.until("the engine answers 200 more", 120, () -> {
            assertTrue(first.isAlive(), () -> "the engine stopped: " + read(tmp.resolve("engine-1.log")));
            return results(now) == answeredBefore + 200;
        });
        orders(now, 5, 200);
        engine.destroyForcibly().waitFor();
        engine = jvms.start(EngineMain.class.getName(), List.of("--data-dir", dir, "--config", config.toString()),
            tmp.resolve("engine-2.log"));
        final Process second = engine;
        Await.until("the restarted engine answers the rest", 120, () -> {
            assertTrue(second.isAlive(), () -> "the engine stopped: " + read(tmp.resolve("engine-2.log")));
            return results(now) == answeredBefore + 400;
        });
        engine.destroy();
        assertTrue(engine.waitFor(60, TimeUnit.SECONDS));
        Files.move(away, archive);
        final JournalSummary.Summary summary;
        try (HistoryView history = HistoryView.open(data.root())) {
            summary = JournalSummary.summarize(history.data());
        }
        assertEquals(summary.commands(), summary.answered(), summary.resultLine());
        assertEquals(0, summary.duplicates(), summary.resultLine());
        assertEquals(0, summary.missing(), summary.resultLine());
        assertEquals(300 + 1 + 300 + 300 + 400, summary.commands(), summary.resultLine());

        // Without a snapshot past the archived day the engine refuses, instead of answering from a journal missing its first day.
        try (Stream<Path> snapshots = Files.list(data.snapshots())) {
            for (final Path s : snapshots.filter(p -> p.getFileName().toString().startsWith("snapshot-")).toList()) {
                Files.delete(s);
            }
        }
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> new EngineService(now, EngineConfigFile.load(config)).close());
        assertTrue(e.getMessage().contains("archived") && e.getMessage().contains("2026-11-20"), e.getMessage());
        assertFalse(Files.exists(data.root().resolve("commands/20261120F.cq4")));
    }

    private static String read(final Path log) {
        try {
            return Files.readString(log);
        } catch (final java.io.IOException e) {
            return e.toString();
        }
    }
}
