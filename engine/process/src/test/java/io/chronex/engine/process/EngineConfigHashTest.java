package io.chronex.engine.process;

import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.SnapshotFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * snapshots/config.hash deleted under a directory that has answered commands: the engine does not take the configuration
 * it is given as the one history was written under. The snapshots' headers say which it was: the same one is written
 * back (with a warning), another is refused; with no snapshot to ask, the start is refused and says how to go on.
 */
class EngineConfigHashTest {
    @TempDir
    Path tmp;

    private static EngineConfig other(final Path dir) throws Exception {
        final Path file = dir.resolve("other.yaml");
        Files.writeString(file, Files.readString(AuditJournals.CONFIG).replace("priceBandBasisPoints: 1000",
            "priceBandBasisPoints: 500"));
        return EngineConfigFile.load(file);
    }

    @Test
    void aMissingConfigurationHashIsTakenFromTheSnapshotsOrTheStartIsRefused() throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), 2_000, 21);
        AuditJournals.answer(data, 1_000, true); // a snapshot after 1,000 commands
        final Path pinned = data.snapshots().resolve(SnapshotFiles.CONFIG_HASH);
        final String recorded = Files.readString(pinned);
        Files.delete(pinned);

        final IllegalStateException other = assertThrows(IllegalStateException.class,
            () -> new EngineService(data, other(tmp), 0, warning -> { }).close());
        assertTrue(other.getMessage().contains(pinned + " is missing, and the snapshots say") && other.getMessage().contains("another"
            + " configuration"), other.getMessage());
        assertTrue(Files.notExists(pinned), "nothing pinned by a refused start");

        final List<String> warnings = new ArrayList<>();
        try (EngineService service = new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG), 0, warnings::add)) {
            while (service.poll()) {
                // the rest
            }
            assertEquals(1_001, service.answered(), "the other 1,000 commands and the malformed excerpt");
        }
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith(pinned + " was missing: written again")), warnings.toString());
        assertEquals(recorded, Files.readString(pinned));

        Files.delete(pinned);
        try (Stream<Path> files = Files.list(data.snapshots())) {
            for (final Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        final IllegalStateException unknown = assertThrows(IllegalStateException.class,
            () -> new EngineService(data, EngineConfigFile.load(AuditJournals.CONFIG), 0, warning -> { }).close());
        assertTrue(unknown.getMessage().contains(pinned + " is missing, but ") && unknown.getMessage().contains("echo "
            + recorded.trim() + " > " + pinned), unknown.getMessage());
    }
}
