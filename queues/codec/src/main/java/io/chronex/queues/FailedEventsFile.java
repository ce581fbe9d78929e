package io.chronex.queues;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Events a gateway could not answer, for a monitor in another process: a small memory-mapped file
 * ({@code gateways/N/failed-events}) holding how many there were, the last one's events index, when,
 * and why. Little-endian: {@code i32 version | i32 reason length | i64 count | i64 last events index
 * | i64 epoch millis | reason (ASCII, up to 200 bytes)}. While the gateway writes a record the count
 * is negative (minus the new count), and it is made positive last, so a reader that sees the same
 * positive count before and after reading the rest has a consistent record.
 * It survives restarts: the count is of all time, and an event failing again after a restart is not
 * counted twice.
 */
public final class FailedEventsFile implements AutoCloseable {
    private static final int VERSION = 1;
    private static final int VERSION_OFFSET = 0;
    private static final int REASON_LENGTH_OFFSET = 4;
    private static final int COUNT_OFFSET = 8;
    private static final int INDEX_OFFSET = 16;
    private static final int MILLIS_OFFSET = 24;
    private static final int REASON_OFFSET = 32;
    private static final int MAX_REASON = 200;
    private static final int FILE_LENGTH = 256;

    /** What a monitor reads. */
    public record Snapshot(long count, long lastEventsIndex, long epochMillis, String reason) {
        /** Whether the file could not be read: then {@code reason} says why and the other fields mean nothing. */
        public boolean unreadable() {
            return count < 0;
        }
    }

    /** What a reader reports for a file it cannot read (count -1, the reason why). */
    private static Snapshot unreadable(final String why) {
        return new Snapshot(-1, -1, 0, why);
    }

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;

    public FailedEventsFile(final Path file) {
        mapped = map(file, FileChannel.MapMode.READ_WRITE);
        buffer = new UnsafeBuffer(mapped);
        if (buffer.getInt(VERSION_OFFSET) != VERSION) {
            buffer.setMemory(0, FILE_LENGTH, (byte) 0);
            buffer.putLong(INDEX_OFFSET, -1);
            buffer.putInt(VERSION_OFFSET, VERSION);
        }
        final long count = buffer.getLong(COUNT_OFFSET);
        if (count < 0) {
            // Killed while writing a record: keep it counted (its text may be torn).
            buffer.putLongOrdered(COUNT_OFFSET, -count);
        }
    }

    private static MappedByteBuffer map(final Path file, final FileChannel.MapMode mode) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), mode == FileChannel.MapMode.READ_ONLY ? "r" : "rw")) {
            if (mode != FileChannel.MapMode.READ_ONLY) {
                raf.setLength(FILE_LENGTH);
            }
            return raf.getChannel().map(mode, 0, FILE_LENGTH);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot map " + file + ": " + e.getMessage(), e);
        }
    }

    /** Events that could not be answered, of all time. */
    public long count() {
        return buffer.getLongVolatile(COUNT_OFFSET);
    }

    /** The last of them, or -1. */
    public long lastEventsIndex() {
        return buffer.getLong(INDEX_OFFSET);
    }

    /**
     * Records a failed event.
     *
     * @return false when it is the one recorded last (the same event failing again after a restart): not counted twice
     */
    public boolean record(final long eventsIndex, final long epochMillis, final String reason) {
        if (count() > 0 && lastEventsIndex() == eventsIndex) {
            return false;
        }
        final long count = count() + 1;
        buffer.putLongVolatile(COUNT_OFFSET, -count);
        final byte[] text = reason.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(text.length, MAX_REASON);
        buffer.putBytes(REASON_OFFSET, text, 0, length);
        buffer.putInt(REASON_LENGTH_OFFSET, length);
        buffer.putLong(INDEX_OFFSET, eventsIndex);
        buffer.putLong(MILLIS_OFFSET, epochMillis);
        buffer.putLongOrdered(COUNT_OFFSET, count);
        return true;
    }

    /** Reads the file of a gateway (running or not) without writing to it; null when there is none. */
    public static Snapshot read(final Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        final long size;
        try {
            size = Files.size(file);
        } catch (final IOException e) {
            return unreadable("cannot read " + file.getFileName() + ": " + e.getMessage());
        }
        if (size < FILE_LENGTH) {
            // Not one this code wrote whole: mapping it read-only past its end would fail, and a reader must carry on.
            return unreadable(file.getFileName() + " is " + size + " bytes, not " + FILE_LENGTH);
        }
        final MappedByteBuffer mapped;
        try {
            mapped = map(file, FileChannel.MapMode.READ_ONLY);
        } catch (final IllegalStateException e) {
            return unreadable(e.getMessage());
        }
        try {
            final UnsafeBuffer b = new UnsafeBuffer(mapped);
            for (int attempt = 0; ; attempt++) {
                final long count = b.getLongVolatile(COUNT_OFFSET);
                final long index = b.getLong(INDEX_OFFSET);
                final long millis = b.getLong(MILLIS_OFFSET);
                final int length = Math.max(0, Math.min(MAX_REASON, b.getInt(REASON_LENGTH_OFFSET)));
                final String reason = b.getStringWithoutLengthAscii(REASON_OFFSET, length);
                // A negative count is a record being written; one left so by a killed gateway is read as it is after many tries.
                if (b.getLongVolatile(COUNT_OFFSET) == count && (count >= 0 || attempt > 10_000)) {
                    return new Snapshot(Math.abs(count), count == 0 ? -1 : index, millis, reason);
                }
            }
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
