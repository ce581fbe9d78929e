package io.chronex.queues;

import io.chronex.testing.ChildJvm;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A writer killed with kill -9 in the middle of an append leaves the queue's write lock set: a queue opened for writing
 * afterwards releases it at once (Chronicle would look only after its 10 s lock timeout), and leaves a live writer's alone.
 * The lock is read from the queue's metadata, not timed.
 */
class DataDirectoryDeadWriterTest {
    private static final String WRITE_LOCK = "chronicle.write.lock";
    private static final long UNLOCKED = Long.MIN_VALUE;

    @TempDir
    Path dir;

    @Test
    void aWriteLockOfAKilledWriterIsReleasedWhenTheQueueIsOpenedAndOneOfALiveWriterIsKept() throws Exception {
        try (SingleChronicleQueue created = DataDirectory.open(dir).commands()) {
            created.createAppender().writeText("first");
        }
        try (ChildJvm jvm = new ChildJvm()) {
            final Process holder = jvm.start(HoldWriteLockMain.class.getName(), List.of(dir.toString()), dir.resolve("holder.log"));
            ChildJvm.awaitLine(holder, dir.resolve("holder.log"), "holding the write lock");

            assertEquals(holder.pid(), writeLock(), "the live writer holds the lock");
            try (SingleChronicleQueue opened = DataDirectory.open(dir).commands()) {
                assertEquals(holder.pid(), opened.tableStoreGet(WRITE_LOCK), "a live writer's lock is kept");
            }

            holder.destroyForcibly();
            holder.waitFor();
            assertEquals(holder.pid(), writeLock(), "kill -9 left the lock set");
            try (SingleChronicleQueue opened = DataDirectory.open(dir).commands()) {
                assertEquals(UNLOCKED, opened.tableStoreGet(WRITE_LOCK), "opened for writing, the dead writer's lock is released");
                final ExcerptAppender appender = opened.createAppender();
                appender.writeText("after the kill");
                final ExcerptTailer tailer = opened.createTailer();
                final List<String> texts = new ArrayList<>();
                for (String text = tailer.readText(); text != null; text = tailer.readText()) {
                    texts.add(text);
                }
                assertEquals(List.of("first", "after the kill"), texts, "the killed writer's unfinished excerpt is not read");
            }
        }
    }

    /** The write lock's holder as the queue's metadata says, read without opening the queue for writing. */
    private long writeLock() {
        try (SingleChronicleQueue readOnly = DataDirectory.openReadOnly(dir).commands()) {
            return readOnly.tableStoreGet(WRITE_LOCK);
        }
    }
}
