package io.chronex.queues;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DATA/marketdata/status as the monitor reads it: each documented field at its offset; a bad file is a problem, not an exception. */
class MarketDataStatusFileTest {
    @TempDir
    Path tmp;

    /** A status file as the publisher writes it: field i (offset 8 * i, after magic and version) holds 100 + i. */
    static byte[] written(final long magic, final long version) {
        final ByteBuffer b = ByteBuffer.allocate(MarketDataStatusFile.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 16; at < MarketDataStatusFile.LENGTH; at += 8) {
            b.putLong(at, 100 + at / 8);
        }
        b.putLong(MarketDataStatusFile.MAGIC_AT, magic).putLong(MarketDataStatusFile.VERSION_AT, version);
        return b.array();
    }

    @Test
    void everyFieldIsReadFromItsDocumentedOffset() throws IOException {
        final Path file = tmp.resolve("status");
        Files.write(file, written(MarketDataStatusFile.MAGIC, 1));
        final MarketDataStatusFile.Snapshot s = MarketDataStatusFile.read(file);
        assertNull(s.problem());
        // docs/marketdata.md: pid at 16, heartbeat 24, incrementals 32, last read 40, seq 48, back-pressure 56, given up 64,
        // lag events 72, lag us 80, snapshots 88, no subscriber 96, started 104, last sent 112, epoch 120.
        assertEquals(new MarketDataStatusFile.Snapshot(102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, null), s);
        assertEquals(897, s.heartbeatAgeMillis(1_000));
        // "CXMDSTAT" in the file's first bytes
        assertEquals("CXMDSTAT", new String(Files.readAllBytes(file), 0, 8, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void aMissingFileIsNothingAndABadOneIsAProblem() throws IOException {
        final Path file = tmp.resolve("status");
        assertNull(MarketDataStatusFile.read(file));
        Files.write(file, new byte[10]);
        assertProblem(file, "10 bytes, shorter than its 128");
        Files.write(file, new byte[128]);
        assertProblem(file, "being set up");
        Files.write(file, written(0x1234, 1));
        assertProblem(file, "not a market-data status file (magic 0x1234)");
        Files.write(file, written(MarketDataStatusFile.MAGIC, 2));
        assertProblem(file, "version 2, this reader knows version 1");
    }

    private static void assertProblem(final Path file, final String expected) {
        final MarketDataStatusFile.Snapshot s = MarketDataStatusFile.read(file);
        assertTrue(s.problem() != null && s.problem().contains(expected), String.valueOf(s.problem()));
        assertEquals(0, s.pid());
    }
}
