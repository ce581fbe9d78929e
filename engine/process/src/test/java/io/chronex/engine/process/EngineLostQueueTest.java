package io.chronex.engine.process;

import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A queue folder deleted under an answered directory: a clear refusal naming it, never a fresh start over history. */
class EngineLostQueueTest {
    @TempDir
    Path tmp;

    private static void deleteTree(final Path root) throws Exception {
        try (Stream<Path> all = Files.walk(root)) {
            for (final Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    /** Answers 1,500 of 2,000 commands with a snapshot, deletes the named queue folder, and expects a refusal naming it. */
    private void refusedWithout(final String queue, final long seed) throws Exception {
        final DataDirectory data = AuditJournals.write(DataDirectory.open(tmp.resolve("data")), 2_000, seed);
        AuditJournals.answer(data, 1_500, true);
        deleteTree(data.root().resolve(queue));
        final DataDirectory again = DataDirectory.open(data.root());
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> new EngineService(again, EngineConfigFile.load(AuditJournals.CONFIG), 0, warning -> { }).close());
        assertTrue(e.getMessage().contains(data.root().resolve(queue).toString()), e.getMessage());
    }

    @Test
    void aDeletedJournalIsRefused() throws Exception {
        refusedWithout("commands", 31);
    }

    @Test
    void aDeletedEventsQueueIsRefused() throws Exception {
        refusedWithout("events", 32);
    }
}
