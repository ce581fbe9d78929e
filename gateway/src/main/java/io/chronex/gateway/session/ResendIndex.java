package io.chronex.gateway.session;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Where each message sent to one session is in the outbound store, by MsgSeqNum: a sparse,
 * memory-mapped file of two {@code long}s per sequence number (the store excerpt and the message's
 * offset inside it, so a resend reads it without walking the excerpt), mapped once at start, so recording a
 * message is a plain store with no allocation however many are sent. Rebuilt from the outbound
 * store at every start, so it is a cache: losing it loses nothing.
 */
public final class ResendIndex implements AutoCloseable {
    /** Messages per session between sequence resets (128 MiB of address space, sparse on disk). */
    public static final int CAPACITY = 1 << 23;
    /** The file is an i64 store index and an i64 offset per MsgSeqNum, MsgSeqNum n at (n - 1) * ENTRY_LENGTH. */
    private static final int ENTRY_LENGTH = 2 * Long.BYTES;
    private static final long FILE_LENGTH = (long) ENTRY_LENGTH * CAPACITY;

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private int size;

    public ResendIndex(final Path file) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(FILE_LENGTH);
            mapped = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, FILE_LENGTH);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot map resend index " + file + ": " + e.getMessage(), e);
        }
        buffer = new UnsafeBuffer(mapped);
    }

    /** Messages recorded since the last reset: their MsgSeqNums are 1..size. */
    public int size() {
        return size;
    }

    /**
     * Records where the next message (MsgSeqNum size + 1) is: its store excerpt, and its entry's offset in that excerpt.
     *
     * @return false when the index is full (CAPACITY messages since the last reset); the message is
     * still sent and stored, but a resend of it becomes a gap fill
     */
    public boolean add(final long storeIndex, final int entryOffset) {
        if (size == CAPACITY) {
            return false;
        }
        final int at = ENTRY_LENGTH * size++;
        buffer.putLong(at, storeIndex);
        buffer.putLong(at + Long.BYTES, entryOffset);
        return true;
    }

    /** The store index of the message with this MsgSeqNum, or -1 when unknown. */
    public long get(final long seq) {
        return seq >= 1 && seq <= size ? buffer.getLong((int) (ENTRY_LENGTH * (seq - 1))) : -1;
    }

    /** The offset of the message's entry inside its store excerpt (see {@link OutboundStore#read}); valid when {@link #get} is not -1. */
    public int offset(final long seq) {
        return (int) buffer.getLong((int) (ENTRY_LENGTH * (seq - 1)) + Long.BYTES);
    }

    /** After a sequence reset: numbering starts again at 1. */
    public void clear() {
        size = 0;
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
