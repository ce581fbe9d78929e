package io.chronex.marketdata.publisher;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The publisher's status for the monitor: DATA/marketdata/status, a fixed {@value #LENGTH}-byte file of little-endian
 * longs, memory-mapped and rewritten in place about once a second (docs/marketdata.md, "Status file"). A reader maps it
 * too and reads the longs; the heartbeat (wall-clock millis) says whether the publisher is alive.
 */
public final class StatusFile implements AutoCloseable {
    /** "CXMDSTAT" as a little-endian long: the file is ours. */
    public static final long MAGIC = 0x5441_5453_444D_5843L;
    public static final int VERSION = 1;
    public static final int LENGTH = 128;
    /** Field offsets (all longs). */
    public static final int MAGIC_AT = 0;
    public static final int VERSION_AT = 8;
    public static final int PID_AT = 16;
    public static final int HEARTBEAT_EPOCH_MILLIS_AT = 24;
    public static final int MESSAGES_AT = 32;
    public static final int LAST_EVENTS_INDEX_AT = 40;
    public static final int SEQ_AT = 48;
    public static final int BACK_PRESSURE_AT = 56;
    public static final int DROPPED_AT = 64;
    public static final int LAG_EVENTS_AT = 72;
    public static final int LAG_MICROS_AT = 80;
    public static final int SNAPSHOTS_AT = 88;
    public static final int NOT_CONNECTED_AT = 96;
    public static final int STARTED_EPOCH_MILLIS_AT = 104;
    /** The events index of the last incremental handed to Aeron, stored on every send: where a restart resumes. */
    public static final int LAST_SENT_INDEX_AT = 112;
    /** The feed's epoch (random, kept while the file is: the file lives and dies with the data directory). */
    public static final int EPOCH_AT = 120;

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final long previousLastSentIndex;
    private long epoch;

    /** Creates or takes over the file and stamps it with this process's id. */
    public StatusFile(final Path file) {
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        buffer = new UnsafeBuffer(mapped);
        final boolean ours = buffer.getLong(MAGIC_AT) == MAGIC && buffer.getLong(VERSION_AT) == VERSION;
        previousLastSentIndex = ours ? buffer.getLong(LAST_SENT_INDEX_AT) : -1;
        final long previousEpoch = ours ? buffer.getLong(EPOCH_AT) : 0;
        epoch = previousEpoch != 0 ? previousEpoch : newEpoch();
        buffer.setMemory(0, LENGTH, (byte) 0);
        buffer.putLong(VERSION_AT, VERSION);
        buffer.putLong(PID_AT, ProcessHandle.current().pid());
        buffer.putLong(STARTED_EPOCH_MILLIS_AT, System.currentTimeMillis());
        // The predecessor's resume point stays until this publisher sends its first message: killed during its rebuild (long
        // on a long queue), it leaves the next one the same point instead of none.
        buffer.putLong(LAST_SENT_INDEX_AT, previousLastSentIndex);
        buffer.putLong(EPOCH_AT, epoch);
        buffer.putLongVolatile(MAGIC_AT, MAGIC);
    }

    private static long newEpoch() {
        long value = 0;
        while (value == 0) {
            value = new java.security.SecureRandom().nextLong();
        }
        return value;
    }

    /** Starts a new numbering: a new random epoch, kept from now on. */
    public long renewEpoch() {
        epoch = newEpoch();
        buffer.putLongVolatile(EPOCH_AT, epoch);
        return epoch;
    }

    /** The feed's epoch: the predecessor's when the file had one, else a new random one. */
    public long epoch() {
        return epoch;
    }

    /** What the file said the last publisher sent last when this one took it over; -1 for nothing. */
    public long previousLastSentIndex() {
        return previousLastSentIndex;
    }

    /** Records the last incremental sent. */
    public void lastSent(final long eventsIndex) {
        buffer.putLongOrdered(LAST_SENT_INDEX_AT, eventsIndex);
    }

    /** Sets one field (an offset above). */
    public void put(final int at, final long value) {
        buffer.putLongVolatile(at, value);
    }

    /** Reads one field of a status file (for tools and tests): the file's long at {@code at}. */
    public static long read(final Path file, final int at) throws IOException {
        final byte[] bytes = Files.readAllBytes(file);
        return new UnsafeBuffer(bytes).getLong(at);
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
