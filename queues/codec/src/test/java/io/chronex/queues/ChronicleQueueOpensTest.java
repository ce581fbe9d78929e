package io.chronex.queues;

import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The build's Java 17 flags are enough for Chronicle Queue to map, write and read a queue. */
class ChronicleQueueOpensTest {
    @Test
    void writtenExcerptIsReadBack(@TempDir final Path dir) {
        try (ChronicleQueue queue = ChronicleQueue.singleBuilder(dir.toFile()).build()) {
            final ExcerptAppender appender = queue.createAppender();
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().writeLong(42L).writeInt(7);
            }
            final ExcerptTailer tailer = queue.createTailer();
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent(), "the excerpt just written must be readable");
                assertEquals(42L, dc.wire().bytes().readLong());
                assertEquals(7, dc.wire().bytes().readInt());
            }
        }
    }
}
