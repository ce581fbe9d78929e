package io.chronex.queues;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A data directory is created once with fixed settings; anything else is refused with a reason. */
class DataDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void newDirectoryGetsMarkerAndQueueFolders() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        assertTrue(Files.isRegularFile(data.root().resolve(DataDirectory.MARKER)));
        assertTrue(Files.isDirectory(data.root().resolve("commands")));
        assertTrue(Files.isDirectory(data.root().resolve("events")));
        assertTrue(Files.isDirectory(data.snapshots()));
        assertEquals(data.root(), DataDirectory.open(tmp.resolve("data")).root(), "reopening is fine");
    }

    @Test
    void queuesKeepWhatWasWrittenAcrossReopening() {
        final Path dir = tmp.resolve("data");
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            try (DocumentContext dc = commands.createAppender().writingDocument()) {
                dc.wire().bytes().writeLong(7L);
            }
        }
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent());
                assertEquals(7L, dc.wire().bytes().readLong());
            }
            assertEquals(DataDirectory.COMMANDS_SOURCE_ID, commands.sourceId());
        }
    }

    @Test
    void aDirectoryThatIsNotOursIsRefused() throws IOException {
        final Path dir = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(dir.resolve("notes.txt"), "precious");
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> DataDirectory.open(dir));
        assertTrue(e.getMessage().contains("not a chronex data directory"), e.getMessage());
        assertEquals(1, Files.list(dir).count(), "nothing was created in it");
    }

    @Test
    void otherSettingsOrLayoutVersionsAreRefused() throws IOException {
        final Path dir = tmp.resolve("data");
        DataDirectory.open(dir);
        final Path marker = dir.resolve(DataDirectory.MARKER);
        final String original = Files.readString(marker);
        Files.writeString(marker, original.replace("rollCycle=FAST_DAILY", "rollCycle=DAILY"));
        assertTrue(assertThrows(IllegalStateException.class, () -> DataDirectory.open(dir)).getMessage().contains("rollCycle"));
        Files.writeString(marker, original.replace("layout=1", "layout=9"));
        assertTrue(assertThrows(IllegalStateException.class, () -> DataDirectory.open(dir)).getMessage().contains("another version"));
    }

    @Test
    void aFileIsNotADataDirectory() throws IOException {
        final Path file = Files.writeString(tmp.resolve("file"), "x");
        assertTrue(assertThrows(IllegalStateException.class, () -> DataDirectory.open(file)).getMessage().contains("is a file"));
    }
}
