package io.chronex.queues;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * Engine snapshots on disk: {@code snapshot-<journal index, 16 hex digits>.bin}, holding the state
 * after that command inside a {@link SnapshotEnvelope} (journal index, configuration hash, the journal
 * command's fingerprint, checksums). Written beside their place, every byte, forced, read back and checked,
 * then renamed, so a crash or a full disk leaves either the old set or the new file whole; a write that
 * fails for any reason leaves nothing behind and is an error for the caller. Keeps the newest {@value #KEEP}.
 * bin/engine and every cluster member write theirs through it, so that the readers ({@link SnapshotFiles}) find one format.
 */
public final class SnapshotStore {
    public static final int KEEP = 3;
    private static final String PREFIX = SnapshotFiles.PREFIX;
    private static final String SUFFIX = SnapshotFiles.SUFFIX;
    /** Writes in a row that wrote nothing before a write is given up: a channel that takes no bytes would spin forever. */
    private static final int MAX_EMPTY_WRITES = 16;

    /** One write call on the channel; tests replace it to give short writes, lost bytes and a full disk. */
    @FunctionalInterface
    public interface Writes {
        long write(FileChannel channel, ByteBuffer[] buffers) throws IOException;
    }

    private final Path dir;
    private final Writes writes;
    /**
     * Free space a snapshot must leave (the engine's storage reserve / 2, below which nothing new is journalled): the
     * queues' results and reports come first, a snapshot only costs a longer replay when it is not written.
     */
    private volatile long keepFree;

    public SnapshotStore(final Path dir) {
        this(dir, FileChannel::write);
    }

    public SnapshotStore(final Path dir, final Writes writes) {
        this.dir = dir;
        this.writes = writes;
    }

    /**
     * Writes the snapshot {@code body} (sealed engine bytes) taken after the command at journalIndex, whose journal
     * excerpt has {@code commandFingerprint}, under the configuration {@code configHash}; returns the file. Throws an
     * UncheckedIOException when it could not be written whole, having deleted what it wrote.
     */
    public Path write(final long journalIndex, final long configHash, final long commandFingerprint, final byte[] body) {
        final Path file = dir.resolve(name(journalIndex));
        final Path temporary = dir.resolve(name(journalIndex) + ".tmp");
        final byte[] header = SnapshotEnvelope.header(journalIndex, configHash, commandFingerprint, body);
        try {
            // With no reserve (0) the write itself meets a full disk, and fails as cleanly.
            final long usable = keepFree == 0 ? Long.MAX_VALUE : Files.getFileStore(dir).getUsableSpace();
            if (usable - header.length - body.length < keepFree) {
                throw new IOException("not enough free space: " + usable + " bytes free, the snapshot needs " + (header.length
                    + body.length) + " and " + keepFree + " must stay free for the queues (--storage-reserve / 2)");
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                writeAll(channel, new ByteBuffer[] {ByteBuffer.wrap(header), ByteBuffer.wrap(body)});
                channel.force(true);
            }
            checkWritten(temporary, journalIndex, header.length + (long) body.length);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory();
        } catch (final IOException | RuntimeException e) {
            deleteQuietly(temporary, e);
            throw new UncheckedIOException("cannot write snapshot " + file + ": " + e.getMessage(),
                e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
        try {
            final List<Long> indices = indices();
            for (int i = KEEP; i < indices.size(); i++) {
                Files.deleteIfExists(dir.resolve(name(indices.get(i))));
            }
        } catch (final IOException | UncheckedIOException e) {
            // The new snapshot is in place; an old one left over costs disk, never a wrong recovery.
        }
        return file;
    }

    /** The free space every snapshot write must leave behind. */
    public void keepFree(final long bytes) {
        keepFree = bytes;
    }

    /** A single write may take fewer bytes than given (and a full disk may end it part way): writes until none remain. */
    private void writeAll(final FileChannel channel, final ByteBuffer[] buffers) throws IOException {
        int empty = 0;
        while (buffers[buffers.length - 1].hasRemaining()) {
            if (writes.write(channel, buffers) > 0) {
                empty = 0;
            } else if (++empty == MAX_EMPTY_WRITES) {
                throw new IOException("the file system took no bytes in " + MAX_EMPTY_WRITES + " writes in a row (at "
                    + channel.position() + ")");
            }
        }
    }

    /** What landed, read back: the whole length, and a header and body whose checksums hold. */
    private static void checkWritten(final Path temporary, final long journalIndex, final long length) throws IOException {
        final long size = Files.size(temporary);
        if (size != length) {
            throw new IOException(size + " bytes on disk after writing " + length);
        }
        final SnapshotEnvelope.Header header;
        try {
            header = SnapshotEnvelope.open(Files.readAllBytes(temporary));
        } catch (final IllegalArgumentException e) {
            throw new IOException("read back, " + e.getMessage(), e);
        }
        if (header.journalIndex() != journalIndex) {
            throw new IOException("read back, it names journal index " + Long.toHexString(header.journalIndex()));
        }
    }

    /** The rename is an entry in the directory: forced too, so that a power cut cannot take the file back. */
    private void forceDirectory() throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static void deleteQuietly(final Path file, final Exception cause) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            cause.addSuppressed(e);
        }
    }

    /** Deletes temporary files a stop in the middle of a write left behind; returns how many. */
    public int deleteUnfinished() {
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
    public List<Long> indices() {
        return SnapshotFiles.indices(dir);
    }

    private static String name(final long journalIndex) {
        return SnapshotFiles.name(journalIndex);
    }
}
