package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.queues.SnapshotFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Engine snapshots on disk: {@code snapshot-<journal index, 16 hex digits>.bin}, holding the state
 * after that command. Written to a temporary file, forced to disk and renamed, so a crash leaves
 * either the old set or the new file whole; the snapshot's own checksum catches anything else.
 * Keeps the newest {@value #KEEP}.
 */
final class SnapshotStore {
    static final int KEEP = 3;
    private static final String PREFIX = SnapshotFiles.PREFIX;
    private static final String SUFFIX = SnapshotFiles.SUFFIX;

    private final Path dir;

    SnapshotStore(final Path dir) {
        this.dir = dir;
    }

    /** Writes a snapshot taken after the command at journalIndex; returns the file. */
    Path write(final long journalIndex, final byte[] snapshot) {
        final Path file = dir.resolve(name(journalIndex));
        final Path temporary = dir.resolve(name(journalIndex) + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(snapshot));
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            final List<Long> indices = indices();
            for (int i = KEEP; i < indices.size(); i++) {
                Files.deleteIfExists(dir.resolve(name(indices.get(i))));
            }
            return file;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The newest snapshot taken at or before journalIndex that reads back cleanly, or null. A
     * corrupt one is reported to warn and skipped in favour of an older one.
     */
    SnapshotFiles.Restored<MatchingEngine> newestUpTo(final long journalIndex, final Consumer<String> warn) {
        return SnapshotFiles.newestUpTo(dir, journalIndex, MatchingEngine::restore, warn);
    }

    /** Deletes temporary files a stop in the middle of a write left behind; returns how many. */
    int deleteUnfinished() {
        int deleted = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                final String name = file.getFileName().toString();
                if (name.startsWith(PREFIX) && name.endsWith(SUFFIX + ".tmp") && Files.deleteIfExists(file)) {
                    deleted++;
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list snapshots in " + dir + ": " + e.getMessage(), e);
        }
        return deleted;
    }

    /** Journal indices of the snapshots present, newest first. */
    List<Long> indices() {
        return SnapshotFiles.indices(dir);
    }

    private static String name(final long journalIndex) {
        return SnapshotFiles.name(journalIndex);
    }
}
