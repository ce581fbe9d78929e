package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.QueueGap;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 4 KiB zeroed in the journal ahead of the engine: Chronicle's tailer reads the zeroes as "nothing
 * written yet", so the engine answers up to there and then has nothing to read, while the journal goes
 * on. The engine service names the unreadable stretch (bin/engine logs it as an error while idle)
 * instead of looking like an engine that is simply caught up.
 */
class EngineJournalGapTest {
    private static final int COMMANDS = 20_000;

    @TempDir
    Path tmp;

    @Test
    void anEngineStuckAtZeroedBytesInTheJournalSaysWhere() throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), COMMANDS, 3);
        final long middle;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            assertTrue(tailer.moveToIndex(commands.lastIndex()));
            try (DocumentContext dc = tailer.readingDocument()) {
                middle = dc.wire().bytes().readPosition() / 2;
            }
        }
        final Path file;
        try (Stream<Path> files = Files.list(tmp.resolve("data/commands"))) {
            file = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(middle);
            raf.write(new byte[4096]);
        }
        try (EngineService service = new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG), 0, warning -> { })) {
            int idle = 0;
            while (idle < 100) {
                idle = service.poll() ? 0 : idle + 1;
            }
            assertTrue(service.answered() > 0 && service.answered() < COMMANDS, "answered " + service.answered());
            final QueueGap gap = service.journalGap();
            assertNotNull(gap, "answered " + service.answered() + " of " + COMMANDS + " and no gap found");
            assertEquals(service.lastAnswered() + 1, gap.from(), gap.describe());
            assertTrue(gap.describe().startsWith(tmp.resolve("data/commands").toString()), gap.describe());
            assertTrue(gap.firstReadable() > gap.from(), gap.describe());
        }
    }

    @Test
    void anEngineBehindOrCaughtUpOnAnUndamagedJournalFindsNoGap() throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), 2_000, 4);
        try (EngineService service = new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG), 0, warning -> { })) {
            assertNull(service.journalGap(), "behind, nothing read yet");
            for (int i = 0; i < 1_000; i++) {
                assertTrue(service.poll());
            }
            assertNull(service.journalGap(), "behind, half read");
            while (service.poll()) {
                // the rest
            }
            assertEquals(2_001, service.answered(), "2,000 commands and one malformed excerpt");
            assertNull(service.journalGap(), "caught up");
        }
    }
}
