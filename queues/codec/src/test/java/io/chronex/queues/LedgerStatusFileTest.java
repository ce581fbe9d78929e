package io.chronex.queues;

import io.chronex.api.AssetSpec;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
            assertEquals("ledger file left part way through an update", LedgerStatusFile.read(file).problem());
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
    void aMissingForeignShortOrOversizedFileIsSaidNotThrown() throws IOException {
        final Path file = LedgerStatusFile.of(tmp);
        assertNull(LedgerStatusFile.read(file));
        Files.write(file, new byte[10]);
        assertEquals("ledger file of 10 bytes, shorter than its header", LedgerStatusFile.read(file).problem());
        Files.write(file, new byte[64]);
        assertEquals("ledger file being set up", LedgerStatusFile.read(file).problem());
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
