package io.chronex.queues;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway's failed-events record as a reader sees it: what was written, nothing for no file, a reason for a bad one. */
class FailedEventsFileTest {
    @TempDir
    Path tmp;

    @Test
    void aReaderSeesWhatWasRecorded() {
        final Path file = tmp.resolve("failed-events");
        try (FailedEventsFile written = new FailedEventsFile(file)) {
            assertTrue(written.record(42, 1_000, "no session for account 9"));
            assertFalse(written.record(42, 2_000, "again"), "the same event is not counted twice");
        }
        final FailedEventsFile.Snapshot read = FailedEventsFile.read(file);
        assertEquals(new FailedEventsFile.Snapshot(1, 42, 1_000, "no session for account 9"), read);
        assertFalse(read.unreadable());
        assertNull(FailedEventsFile.read(tmp.resolve("none")));
    }

    @Test
    void aShortFileIsUnreadableNotAnException() throws Exception {
        final Path file = Files.write(tmp.resolve("failed-events"), new byte[] {1, 2, 3});
        final FailedEventsFile.Snapshot read = FailedEventsFile.read(file);
        assertTrue(read.unreadable());
        assertEquals("failed-events is 3 bytes, not 256", read.reason());
        assertEquals(3, Files.size(file), "a reader changes nothing");
    }
}
