package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.audit.Audit;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 4 KiB zeroed in the middle of the events queue or the journal of an answered data directory: bin/audit
 * verify names the damaged queue and its unreadable indices and exits 1, never 0 over results it could not read.
 */
class AuditDamageTest {
    private static final int COMMANDS = 20_000;

    @TempDir
    Path tmp;

    /**
     * Zeroes 4 KiB of the queue's file from the header of its middle excerpt (aligned: {@code aligned}) or from halfway
     * between its first and last excerpt's bytes (wherever that falls, often inside an excerpt).
     */
    static void zeroMiddle(final Path queueDir, final boolean aligned) throws Exception {
        final long middle;
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(queueDir.toFile()).readOnly(true).build()) {
            final ExcerptTailer tailer = queue.createTailer();
            final long index = aligned ? queue.firstIndex() + (queue.lastIndex() - queue.firstIndex()) / 2 : queue.lastIndex();
            assertTrue(tailer.moveToIndex(index));
            try (DocumentContext dc = tailer.readingDocument()) {
                middle = aligned ? dc.wire().bytes().readPosition() - Integer.BYTES : dc.wire().bytes().readPosition() / 2;
            }
        }
        final Path file;
        try (Stream<Path> files = Files.list(queueDir)) {
            file = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(middle);
            raf.write(new byte[4096]);
        }
    }

    private static String verify(final Path dir, final int expectedExit) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream err = System.err;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setErr(out);
            final int exit = Audit.exitCode(new String[] {"verify", "--data-dir", dir.toString(), "--config",
                AuditJournals.CONFIG.toString()}, out);
            assertEquals(expectedExit, exit, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void verifyNamesAStretchOfTheEventsQueueThatCannotBeRead() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 11));
        verify(dir, 0);
        zeroMiddle(dir.resolve("events"), true);
        final String said = verify(dir, 1);
        assertTrue(said.contains("MISMATCH: the events queue is damaged: " + dir.resolve("events") + ": excerpts from index 0x"), said);
    }

    @Test
    void verifyNamesAStretchOfTheJournalThatCannotBeRead() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 12));
        zeroMiddle(dir.resolve("commands"), true);
        final String said = verify(dir, 1);
        assertTrue(said.contains("but the journal is damaged: " + dir.resolve("commands") + ": excerpts from index 0x"), said);
    }

    /** Zeroes that fall inside an excerpt leave its header, so the excerpt reads with other bytes: a mismatch there, exit 1. */
    @Test
    void zeroesInsideAnExcerptAreAMismatch() throws Exception {
        final Path dir = tmp.resolve("data");
        AuditJournals.answer(AuditJournals.write(DataDirectory.open(dir), COMMANDS, 13));
        zeroMiddle(dir.resolve("events"), false);
        final String said = verify(dir, 1);
        assertTrue(said.contains("MISMATCH"), said);
    }
}
