package io.chronex.engine.process;

import io.chronex.queues.SnapshotStore;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.replay.JournalSummary;
import io.chronex.runtime.StorageGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine whose filesystem fills up pauses before it reads another command (a result it could not
 * write after applying the command would be applied again after a restart), says so, and goes on by
 * itself when space returns: every command answered exactly once. The disk is a stand-in whose free
 * space the test sets (the tmpfs test fills a real one: docs/recovery.md).
 */
class EngineStorageTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path tmp;

    @Test
    void theEnginePausesBelowAQuarterOfTheReserveAndGoesOnWhenSpaceReturns() throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), 2_000, 8);
        final long[] free = {1_000 * MIB};
        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG), 0, warnings::add)) {
            final StorageGuard guard = new StorageGuard(tmp, 100 * MIB, () -> free[0]);
            service.storageGuard(guard);
            for (int i = 0; i < 500; i++) {
                assertTrue(service.poll());
            }
            free[0] = 30 * MIB; // below the reserve, above a quarter: gateways refuse orders, the engine answers what is journalled
            guard.recheck(); // read now, as the guard would within 50 ms: the test waits on no clock
            for (int i = 0; i < 500; i++) {
                assertTrue(service.poll());
            }
            assertFalse(service.pausedForStorage());
            free[0] = 20 * MIB;
            guard.recheck();
            for (int i = 0; i < 1_000; i++) {
                assertFalse(service.poll(), "read a command with the disk all but full");
            }
            assertTrue(service.pausedForStorage());
            assertEquals(1_000, service.answered());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("paused: free space on the filesystem of " + tmp) && warnings.get(0).contains("20.0 MiB"),
                warnings.get(0));
            free[0] = 200 * MIB;
            guard.recheck();
            while (service.poll()) {
                // the rest, by itself
            }
            assertFalse(service.pausedForStorage());
            assertEquals(2_001, service.answered(), "2,000 commands and one malformed excerpt");
            assertTrue(warnings.get(1).startsWith("resumed: "), warnings.toString());
        }
        final JournalSummary.Summary summary = JournalSummary.summarize(data);
        assertTrue(summary.clean(), summary.resultLine());
    }

    /** A snapshot that would leave less than half the reserve free is not written (the queues' writes come first): an error, no file. */
    @Test
    void aSnapshotThatWouldEatIntoTheReserveIsRefusedBeforeAByteIsWritten() throws Exception {
        final Path dir = java.nio.file.Files.createDirectories(tmp.resolve("snapshots"));
        final SnapshotStore store = new SnapshotStore(dir);
        // More than the filesystem will ever have free, so the refusal does not hang on other processes' writes and deletes
        // (keeping exactly the free space measured here failed once, when a parallel test freed some in between).
        store.keepFree(java.nio.file.Files.getFileStore(dir).getTotalSpace() + 1);
        final java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.UncheckedIOException.class,
            () -> store.write(0x1234, 7, 9, new byte[4096]));
        assertTrue(e.getMessage().contains("not enough free space") && e.getMessage().contains("--storage-reserve"), e.getMessage());
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
            assertEquals(0, files.count(), "nothing left behind");
        }
        store.keepFree(0);
        assertTrue(java.nio.file.Files.exists(store.write(0x1234, 7, 9, new byte[4096])), "written once the reserve allows it");
    }
}
