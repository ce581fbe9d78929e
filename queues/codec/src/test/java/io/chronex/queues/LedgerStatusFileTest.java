package io.chronex.queues;

import io.chronex.api.AssetSpec;
import io.chronex.api.MoneyTotals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DATA/ledger: what the writer puts in is what the reader gets, code, decimals and the five totals per asset; a file
 * left part way through an update (kill -9 between begin and end), a foreign or short file are problems, not exceptions.
 */
class LedgerStatusFileTest {
    private static final List<AssetSpec> ASSETS = List.of(new AssetSpec(1, "USD", 2), new AssetSpec(2, "ACME", 0),
        new AssetSpec(7, "A-CODE-LONGER-THAN-THIRTY-TWO-BYTES", 8));

    @TempDir
    Path tmp;

    @Test
    void whatTheWriterPutsTheReaderGets() {
        final Path file = LedgerStatusFile.of(tmp);
        try (LedgerStatusFile.Writer writer = new LedgerStatusFile.Writer(file, ASSETS)) {
            LedgerStatusFile.Snapshot s = LedgerStatusFile.read(file);
            assertNull(s.problem());
            assertEquals(-1, s.lastJournalIndex(), "nothing written yet");
            writer.begin();
            writer.asset(0, 100_000, 2_000, -50, 75, 30_000);
            writer.asset(1, 500, 0, 0, 0, 120);
            writer.asset(2, 1, 2, 3, 4, 5);
            writer.end(42, 0x1_0000_0029L, 1_800_000_000_000L);
            s = LedgerStatusFile.read(file);
            assertNull(s.problem());
            assertEquals(ProcessHandle.current().pid(), s.pid());
            assertEquals(42, s.commands());
            assertEquals(0x1_0000_0029L, s.lastJournalIndex());
            assertEquals(1_800_000_000_000L, s.writtenEpochMillis());
            assertEquals(List.of(new LedgerStatusFile.Asset(1, "USD", 2, 100_000, 2_000, -50, 75, 30_000),
                new LedgerStatusFile.Asset(2, "ACME", 0, 500, 0, 0, 0, 120),
                new LedgerStatusFile.Asset(7, "A-CODE-LONGER-THAN-THIRTY-TWO-BY", 8, 1, 2, 3, 4, 5)), s.assets());
            assertEquals(100_000 - 2_000 - 50 - 30_000 - 75, s.assets().get(0).available());
            assertEquals("678.75", s.assets().get(0).format(s.assets().get(0).available()));
        }
    }

    @Test
    void anUpdateLeftHalfWayIsAProblemUntilTheNextWriterTakesOver() {
        final Path file = LedgerStatusFile.of(tmp);
        try (LedgerStatusFile.Writer writer = new LedgerStatusFile.Writer(file, ASSETS)) {
            writer.begin();
            writer.asset(0, 1, 1, 1, 1, 1);
            // no end(): the engine was killed here
            assertEquals("ledger file stuck part way through an update (its engine stopped while writing it?)",
                LedgerStatusFile.read(file).problem());
        }
        try (LedgerStatusFile.Writer writer = new LedgerStatusFile.Writer(file, ASSETS.subList(0, 1))) {
            writer.begin();
            writer.asset(0, 9, 0, 0, 0, 0);
            writer.end(1, 5, 6);
            final LedgerStatusFile.Snapshot s = LedgerStatusFile.read(file);
            assertNull(s.problem());
            assertEquals(List.of(new LedgerStatusFile.Asset(1, "USD", 2, 9, 0, 0, 0, 0)), s.assets(), "only the new run's asset");
        }
    }

    @Test
    void aDamagedAssetRecordIsAProblemNotFigures() throws IOException {
        final Path file = LedgerStatusFile.of(tmp);
        new LedgerStatusFile.Writer(file, ASSETS).close();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 99),
                LedgerStatusFile.HEADER + LedgerStatusFile.RECORD + LedgerStatusFile.DECIMALS);
        }
        assertEquals("ledger file damaged: asset 2 with 99 decimals", LedgerStatusFile.read(file).problem());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8), LedgerStatusFile.HEADER + LedgerStatusFile.ID);
        }
        assertEquals("ledger file damaged: an asset record with id 0", LedgerStatusFile.read(file).problem());
    }

    /**
     * A reader racing a writer that publishes all the time and is replaced by a new writer (an engine restart) every 500
     * updates: every read is a whole update (all five totals and the command count the same number) or, when the writer
     * thread was descheduled mid-update for longer than the reader waits, says so; nothing throws or crashes the JVM
     * (a file truncated under a reader's mapping would).
     */
    @Test
    void aReaderRacingAWriterAndItsReplacementsSeesOnlyWholeUpdates() throws Exception {
        final Path file = LedgerStatusFile.of(tmp);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong replacements = new AtomicLong();
        final Thread writerThread = new Thread(() -> {
            long n = 0;
            while (!stop.get()) {
                try (LedgerStatusFile.Writer writer = new LedgerStatusFile.Writer(file, ASSETS)) {
                    replacements.incrementAndGet();
                    for (int i = 0; i < 500 && !stop.get(); i++) {
                        final long value = ++n;
                        writer.publish(new Same(value), value, value, value);
                    }
                }
            }
        }, "ledger-writer");
        writerThread.start();
        int whole = 0;
        int stuck = 0;
        try {
            while (whole < 5_000 || replacements.get() < 10) {
                final LedgerStatusFile.Snapshot s = LedgerStatusFile.read(file);
                if (s == null) {
                    continue; // before the first writer's rename
                }
                if (s.problem() != null) {
                    assertTrue(s.problem().startsWith("ledger file stuck part way"), s.problem());
                    stuck++;
                    continue;
                }
                assertEquals(3, s.assets().size(), s.toString());
                for (final LedgerStatusFile.Asset a : s.assets()) {
                    for (final long v : new long[] {a.deposited(), a.withdrawn(), a.adjusted(), a.fees(), a.held()}) {
                        assertEquals(s.commands(), v, "a torn read: " + s);
                    }
                }
                whole++;
            }
        } finally {
            stop.set(true);
            writerThread.join();
        }
        assertTrue(stuck < whole / 100, stuck + " reads found an update in progress for too long, of " + whole);
    }

    /** Every total of every asset the same number. */
    private record Same(long value) implements MoneyTotals {
        @Override
        public long deposited(final int assetId) {
            return value;
        }

        @Override
        public long withdrawn(final int assetId) {
            return value;
        }

        @Override
        public long adjusted(final int assetId) {
            return value;
        }

        @Override
        public long feesCollected(final int assetId) {
            return value;
        }

        @Override
        public long heldTotal(final int assetId) {
            return value;
        }
    }

    @Test
    void aMissingForeignShortOrOversizedFileIsSaidNotThrown() throws IOException {
        final Path file = LedgerStatusFile.of(tmp);
        assertNull(LedgerStatusFile.read(file));
        Files.write(file, new byte[10]);
        assertEquals("ledger file of 10 bytes, shorter than its header", LedgerStatusFile.read(file).problem());
        Files.write(file, new byte[64]);
        assertEquals("ledger file zeroed", LedgerStatusFile.read(file).problem());
        final ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, 0x1234);
        Files.write(file, b.array());
        assertEquals("not a ledger file (magic 0x1234)", LedgerStatusFile.read(file).problem());
        b.putLong(0, LedgerStatusFile.MAGIC).putLong(8, 2);
        Files.write(file, b.array());
        assertEquals("ledger file version 2, this reader knows version 1", LedgerStatusFile.read(file).problem());
        b.putLong(8, 1).putLong(56, 3);
        Files.write(file, b.array());
        assertEquals("ledger file names 3 assets but holds 0", LedgerStatusFile.read(file).problem());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, Long.MIN_VALUE), 56);
        }
        assertEquals("ledger file names " + Long.MIN_VALUE + " assets but holds 0", LedgerStatusFile.read(file).problem());
    }
}
