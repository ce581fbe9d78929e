package io.chronex.queues;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/** A child process for {@link DataDirectoryDeadWriterTest}: opens DIR's commands queue, starts an append and never ends it. */
public final class HoldWriteLockMain {
    private HoldWriteLockMain() {
    }

    public static void main(final String[] args) {
        final SingleChronicleQueue queue = DataDirectory.open(Path.of(args[0])).commands();
        final ExcerptAppender appender = queue.createAppender();
        // Holds the queue's write lock until the process ends, as a writer killed in the middle of an append does.
        final DocumentContext append = appender.writingDocument();
        append.wire().bytes().writeLong(42L);
        System.out.println("holding the write lock, pid " + ProcessHandle.current().pid());
        while (true) {
            LockSupport.park();
        }
    }
}
