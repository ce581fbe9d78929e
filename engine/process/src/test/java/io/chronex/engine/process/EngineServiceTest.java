package io.chronex.engine.process;

import io.chronex.queues.SnapshotStore;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine on real queues: one events excerpt per command, exactly once across restarts, garbage answered and survived. */
class EngineServiceTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));

    @TempDir
    Path tmp;

    /** Appends a trading stream: orders around 100 from 20 accounts, with cancels and moves of earlier orders. */
    static List<Long> appendCommands(final DataDirectory data, final int count, final long seed) {
        final List<Long> indices = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(seed);
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 0; i < count; i++) {
                final long account = 1 + random.nextInt(20);
                switch (random.nextInt(5)) {
                    case 0 -> c.cancel(account, 1 + random.nextInt(i + 1));
                    case 1 -> c.move(account, 1 + random.nextInt(i + 1), 90 + random.nextInt(21));
                    default -> c.limit(account, 1, i + 1, random.nextBoolean() ? Side.BUY : Side.SELL, 90 + random.nextInt(21), 1
                        + random.nextInt(10));
                }
                hops.clear();
                hops.gatewayAppendNanos = System.nanoTime();
                try (DocumentContext dc = appender.writingDocument()) {
                    CommandCodec.write(dc.wire().bytes(), c, hops);
                }
                indices.add(appender.lastIndexAppended());
            }
        }
        return indices;
    }

    /** Every events excerpt's command index, in order, and their results' canonical text. */
    static List<Long> answeredIndices(final DataDirectory data, final List<String> results) {
        final List<Long> indices = new ArrayList<>();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return indices;
                    }
                    assertEquals(DecodeStatus.OK, EventCodec.read(dc.wire().bytes(), header, result));
                    indices.add(header.commandIndex);
                    results.add(result.toString());
                }
            }
        }
    }

    /**
     * Answers up to max commands. Snapshots are written in the background, and a newer one replaces
     * one the writer has not started; waiting for the writer every 100 commands (the tests snapshot
     * every 400 or 500) makes every snapshot land, so the tests know which files exist.
     */
    static long drain(final EngineService service, final long max) {
        long processed = 0;
        while (processed < max && service.poll()) {
            if (++processed % 100 == 0) {
                service.awaitSnapshots();
            }
        }
        service.awaitSnapshots();
        return processed;
    }

    @Test
    void everyCommandIsAnsweredOnceInJournalOrder() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        final List<Long> journal = appendCommands(data, 5_000, 1);
        try (EngineService service = new EngineService(data, CONFIG)) {
            assertEquals(-1, service.recoveredThrough());
            assertEquals(5_000, drain(service, Long.MAX_VALUE));
        }
        assertEquals(journal, answeredIndices(data, new ArrayList<>()));
    }

    @Test
    void restartsResumeAfterTheLastAnsweredCommandAndEndInTheSameState() {
        final DataDirectory whole = DataDirectory.open(tmp.resolve("whole"));
        appendCommands(whole, 6_000, 2);
        final long expectedHash;
        final List<String> expectedResults = new ArrayList<>();
        try (EngineService service = new EngineService(whole, CONFIG)) {
            drain(service, Long.MAX_VALUE);
            expectedHash = service.stateHash();
        }
        answeredIndices(whole, expectedResults);

        final DataDirectory interrupted = DataDirectory.open(tmp.resolve("interrupted"));
        final List<Long> journal = appendCommands(interrupted, 6_000, 2);
        long hash = 0;
        for (final long stop : new long[]{1, 999, 2_500, 2_501, 4_000, Long.MAX_VALUE}) {
            try (EngineService service = new EngineService(interrupted, CONFIG)) {
                drain(service, stop == Long.MAX_VALUE ? stop : 1 + stop % 1_700);
                hash = service.stateHash();
            }
        }
        try (EngineService service = new EngineService(interrupted, CONFIG)) {
            assertEquals(journal.get(journal.size() - 1), service.recoveredThrough());
            assertEquals(6_000, service.replayedCommands());
            assertEquals(0, drain(service, Long.MAX_VALUE), "nothing left to answer");
            assertEquals(hash, service.stateHash());
        }
        final List<String> results = new ArrayList<>();
        assertEquals(journal, answeredIndices(interrupted, results), "each command answered once, in order");
        assertEquals(expectedResults, results, "the same results as the uninterrupted run");
        assertEquals(expectedHash, hash);
    }

    @Test
    void garbageInTheJournalIsAnsweredAsMalformedAndTheEngineGoesOn() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 10, 3);
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().writeByte((byte) 'Z').writeLong(42);
            }
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().writeByte(CommandCodec.MESSAGE_TYPE).writeByte(CommandCodec.VERSION).writeInt(7);
            }
        }
        appendCommands(data, 10, 4);
        final List<String> results = new ArrayList<>();
        try (EngineService service = new EngineService(data, CONFIG)) {
            assertEquals(22, drain(service, Long.MAX_VALUE));
            assertEquals(2, service.rejectCounts()[RejectReason.MALFORMED_COMMAND.ordinal()]);
        }
        answeredIndices(data, results);
        assertTrue(results.get(10).contains("REJECTED MALFORMED_COMMAND"), results.get(10));
        assertTrue(results.get(11).contains("REJECTED MALFORMED_COMMAND"), results.get(11));
        assertEquals(22, results.size());
    }

    @Test
    void recoveryFromSnapshotPlusJournalEqualsRecoveryFromJournalAlone() throws Exception {
        final DataDirectory plain = DataDirectory.open(tmp.resolve("plain"));
        final DataDirectory snapshotted = DataDirectory.open(tmp.resolve("snapshotted"));
        appendCommands(plain, 6_000, 5);
        final List<Long> journal = appendCommands(snapshotted, 6_000, 5);
        final long expectedHash;
        try (EngineService service = new EngineService(plain, CONFIG)) {
            drain(service, 3_333);
        }
        try (EngineService service = new EngineService(plain, CONFIG)) {
            assertEquals(null, service.restoredSnapshot());
            assertEquals(3_333, service.replayedCommands(), "journal alone: everything answered is replayed");
            drain(service, Long.MAX_VALUE);
            expectedHash = service.stateHash();
        }
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(snapshotted, CONFIG, 500, warnings::add)) {
            drain(service, 3_333);
        }
        try (EngineService service = new EngineService(snapshotted, CONFIG, 500, warnings::add)) {
            assertTrue(service.restoredSnapshot() != null, "restarted from a snapshot");
            assertEquals(333, service.replayedCommands(), "only the tail after the snapshot at 3,000 is replayed");
            drain(service, Long.MAX_VALUE);
            assertEquals(expectedHash, service.stateHash());
        }
        final List<String> plainResults = new ArrayList<>();
        final List<String> snapshottedResults = new ArrayList<>();
        answeredIndices(plain, plainResults);
        assertEquals(journal, answeredIndices(snapshotted, snapshottedResults));
        assertEquals(plainResults, snapshottedResults);
        assertEquals(List.of(), warnings);
        assertEquals(SnapshotStore.KEEP, new SnapshotStore(snapshotted.snapshots()).indices().size(), "old snapshots are pruned");
    }

    @Test
    void aCorruptSnapshotIsSkippedWithAWarningAndAnOlderOneUsed() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 2_000, 6);
        final long expectedHash;
        try (EngineService service = new EngineService(data, CONFIG, 400, System.err::println)) {
            drain(service, Long.MAX_VALUE);
            expectedHash = service.stateHash();
        }
        final SnapshotStore store = new SnapshotStore(data.snapshots());
        final List<Long> indices = store.indices();
        final Path newest = data.snapshots().resolve(String.format("snapshot-%016x.bin", indices.get(0)));
        final byte[] bytes = java.nio.file.Files.readAllBytes(newest);
        bytes[bytes.length / 2] ^= 0x5A;
        java.nio.file.Files.write(newest, bytes);
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, CONFIG, 400, warnings::add)) {
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains(newest.getFileName().toString()) && warnings.get(0).contains("checksum"), warnings.get(0));
            assertEquals(data.snapshots().resolve(String.format("snapshot-%016x.bin", indices.get(1))), service.restoredSnapshot());
            assertEquals(400, service.replayedCommands());
            assertEquals(expectedHash, service.stateHash());
        }
    }

    @Test
    void aSnapshotCommandWritesASnapshot() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 10, 7);
        try (SingleChronicleQueue commands = data.commands()) {
            try (DocumentContext dc = commands.createAppender().writingDocument()) {
                CommandCodec.write(dc.wire().bytes(), new Command().symbolCommand(io.chronex.api.CommandType.SNAPSHOT, 0), new Hops());
            }
        }
        try (EngineService service = new EngineService(data, CONFIG)) {
            drain(service, Long.MAX_VALUE);
            assertEquals(List.of(service.lastAnswered()), new SnapshotStore(data.snapshots()).indices());
        }
    }

    @Test
    void aSnapshotThatCannotBeWrittenIsAWarningAndTheEngineGoesOn() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 10, 9);
        try (SingleChronicleQueue commands = data.commands()) {
            try (DocumentContext dc = commands.createAppender().writingDocument()) {
                CommandCodec.write(dc.wire().bytes(), new Command().symbolCommand(io.chronex.api.CommandType.SNAPSHOT, 0), new Hops());
            }
        }
        appendCommands(data, 10, 10);
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, CONFIG, 0, warnings::add)) {
            // The snapshots directory turns into a plain file under the running engine.
            final Path dir = data.snapshots();
            final byte[] configHash = java.nio.file.Files.readAllBytes(dir.resolve("config.hash"));
            java.nio.file.Files.delete(dir.resolve("config.hash"));
            java.nio.file.Files.delete(dir.resolve(io.chronex.queues.ConfigRecordIndex.FILE)); // a cache: the next start reads the journal
            java.nio.file.Files.delete(dir);
            java.nio.file.Files.writeString(dir, "in the way");
            assertEquals(21, drain(service, Long.MAX_VALUE), "every command answered, the ones after the failed snapshot too");
            assertEquals(0, service.snapshotsWritten());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("cannot write snapshot") && warnings.get(0).contains("the engine goes on"),
                warnings.get(0));
            java.nio.file.Files.delete(dir);
            java.nio.file.Files.createDirectory(dir);
            java.nio.file.Files.write(dir.resolve("config.hash"), configHash);
        }
    }

    @Test
    void aSnapshotLeftUnfinishedByAStopIsDeletedAtStart() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 10, 11);
        try (EngineService service = new EngineService(data, CONFIG)) {
            drain(service, Long.MAX_VALUE);
        }
        final Path unfinished = data.snapshots().resolve(String.format("snapshot-%016x.bin.tmp", 5L));
        java.nio.file.Files.write(unfinished, new byte[] {1, 2, 3});
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, CONFIG, 0, warnings::add)) {
            assertTrue(!java.nio.file.Files.exists(unfinished));
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("unfinished snapshot"), warnings.get(0));
            assertEquals(10, service.replayedCommands());
        }
    }

    /** Polls like the engine's loop (which does not stop at an empty poll) until n more commands are answered. */
    private static void answer(final EngineService service, final long n) {
        final long target = service.answered() + n;
        for (long polls = 0; service.answered() < target; polls++) {
            assertTrue(polls < 50_000_000, "only " + service.answered() + " of " + target + " answered");
            service.poll();
        }
    }

    @Test
    void theEngineFollowsTheJournalAcrossDayRolls() {
        final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T23:58:00Z"));
        final DataDirectory data = DataDirectory.open(tmp.resolve("d")).withClock(clock);
        final List<Long> journal = new ArrayList<>(appendCommands(data, 3_000, 21));
        try (EngineService service = new EngineService(data, CONFIG)) {
            answer(service, 3_000);
            // A writer that stopped before midnight and a new one after it (Chronicle closes the old day's file as it starts).
            clock.advanceMillis(TimeUnit.MINUTES.toMillis(5));
            journal.addAll(appendCommands(data, 3_000, 22));
            answer(service, 3_000);
            // One writer across the next midnight: it closes the old day's file as it rolls.
            try (SingleChronicleQueue commands = data.commands()) {
                final ExcerptAppender appender = commands.createAppender();
                final Command c = new Command();
                final Hops hops = new Hops();
                for (int i = 0; i < 2_000; i++) {
                    if (i == 1_000) {
                        answer(service, 1_000);
                        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
                    }
                    CommandCodec.append(appender,
                        c.limit(1 + i % 20, 1, 100_000 + i, i % 2 == 0 ? Side.BUY : Side.SELL, 95 + i % 11, 1), hops);
                    journal.add(appender.lastIndexAppended());
                }
            }
            answer(service, 1_000);
            assertEquals(0, drain(service, Long.MAX_VALUE));
        }
        assertEquals(3, journal.stream().map(index -> index >>> 32).distinct().count(), "three days' files");
        assertEquals(journal, answeredIndices(data, new ArrayList<>()), "every command answered once, in journal order");
    }

    /** A data directory whose 3,000 commands were all answered, with the journal's file then damaged by {@code damage}. */
    private DataDirectory answeredThenDamaged(final String name, final java.util.function.BiConsumer<Path, Long> damage) throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve(name));
        final List<Long> journal = appendCommands(data, 3_000, 31);
        try (EngineService service = new EngineService(data, CONFIG)) {
            assertEquals(3_000, drain(service, Long.MAX_VALUE));
        }
        final long offset;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            assertTrue(tailer.moveToIndex(journal.get(2_000)));
            try (DocumentContext dc = tailer.readingDocument()) {
                offset = dc.wire().bytes().readPosition();
            }
        }
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(data.root().resolve("commands"))) {
            damage.accept(files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow(), offset);
        }
        return data;
    }

    @Test
    void aTruncatedOrOverwrittenJournalIsAClearErrorThatNamesTheFile() throws Exception {
        final DataDirectory truncated = answeredThenDamaged("truncated", (file, offset) -> {
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
                channel.truncate(offset - 50);
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        final DataDirectory overwritten = answeredThenDamaged("overwritten", (file, offset) -> {
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
                final byte[] garbage = new byte[4096];
                new SplittableRandom(5).nextBytes(garbage);
                channel.write(java.nio.ByteBuffer.wrap(garbage), offset - 50);
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        for (final DataDirectory data : List.of(truncated, overwritten)) {
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> new EngineService(data, CONFIG).close());
            assertTrue(e.getMessage().contains(data.root().resolve("commands").toString()) && e.getMessage().contains(".cq4"),
                e.getMessage());
            assertTrue(e.getMessage().contains("truncated or damaged"), e.getMessage());
        }
    }

    @Test
    void aTruncatedEventsQueueIsAClearErrorNotAnswersGivenTwice() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 3_000, 41);
        try (EngineService service = new EngineService(data, CONFIG)) {
            assertEquals(3_000, drain(service, Long.MAX_VALUE));
        }
        final long offset;
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            assertTrue(tailer.moveToIndex(tailer.toStart().index() + 2_000));
            try (DocumentContext dc = tailer.readingDocument()) {
                offset = dc.wire().bytes().readPosition();
            }
        }
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(data.root().resolve("events"));
             java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(
                 files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow(), java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(offset - 50);
        }
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> new EngineService(data, CONFIG).close());
        assertTrue(e.getMessage().contains(data.root().resolve("events") + " is damaged or truncated"), e.getMessage());
        // Nothing was answered again.
        final List<Long> answered = answeredIndices(data, new ArrayList<>());
        assertEquals(answered.size(), answered.stream().distinct().count());
    }

    @Test
    void anotherConfigurationOnTheSameJournalIsRefused() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        appendCommands(data, 10, 8);
        try (EngineService service = new EngineService(data, CONFIG)) {
            drain(service, Long.MAX_VALUE);
        }
        final EngineConfig other = EngineConfig.noRiskChecks(SymbolSpec.plain(1), SymbolSpec.plain(2));
        final IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> new EngineService(data, other).close());
        assertTrue(e.getMessage().contains("differs from the one"), e.getMessage());
    }
}
