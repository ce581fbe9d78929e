package io.chronex.replay.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * How bin/audit writes its files under {@code DIR/audit-index} (the order and ClOrdID indexes, the kept
 * snapshots): whole, beside their place, then renamed into it, so a reader sees the old file or the new
 * one, never a mix, even with two tools writing at once.
 */
final class IndexFile {
    /** Takes a file's contents as little-endian longs, buffered. */
    @FunctionalInterface
    interface Longs {
        void put(long value) throws IOException;
    }

    /** Writes a file's contents. */
    @FunctionalInterface
    interface Contents {
        void writeTo(Longs out) throws IOException;
    }

    private IndexFile() {
    }

    /** Replaces {@code file} with the longs {@code contents} writes. */
    static void replace(final Path file, final Contents contents) throws IOException {
        final Path tmp = temporary(file);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
            final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
            contents.writeTo(value -> {
                if (!buffer.hasRemaining()) {
                    drain(ch, buffer);
                }
                buffer.putLong(value);
            });
            drain(ch, buffer);
        }
        moveIntoPlace(tmp, file);
    }

    /** Replaces {@code file} with {@code bytes}. */
    static void replace(final Path file, final byte[] bytes) throws IOException {
        final Path tmp = temporary(file);
        Files.write(tmp, bytes);
        moveIntoPlace(tmp, file);
    }

    private static Path temporary(final Path file) {
        return file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    }

    private static void drain(final FileChannel ch, final ByteBuffer buffer) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            ch.write(buffer);
        }
        buffer.clear();
    }

    private static void moveIntoPlace(final Path tmp, final Path file) throws IOException {
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
