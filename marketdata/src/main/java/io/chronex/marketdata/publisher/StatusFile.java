package io.chronex.marketdata.publisher;

import io.chronex.queues.MarketDataStatusFile;
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
    // The layout is defined once, in queues/codec, where the monitor reads it: these are its names here.
    public static final long MAGIC = MarketDataStatusFile.MAGIC;
    public static final int VERSION = MarketDataStatusFile.VERSION;
    public static final int LENGTH = MarketDataStatusFile.LENGTH;
    public static final int MAGIC_AT = MarketDataStatusFile.MAGIC_AT;
    public static final int VERSION_AT = MarketDataStatusFile.VERSION_AT;
    public static final int PID_AT = MarketDataStatusFile.PID_AT;
    public static final int HEARTBEAT_EPOCH_MILLIS_AT = MarketDataStatusFile.HEARTBEAT_EPOCH_MILLIS_AT;
    public static final int MESSAGES_AT = MarketDataStatusFile.MESSAGES_AT;
    public static final int LAST_EVENTS_INDEX_AT = MarketDataStatusFile.LAST_EVENTS_INDEX_AT;
    public static final int SEQ_AT = MarketDataStatusFile.SEQ_AT;
    public static final int BACK_PRESSURE_AT = MarketDataStatusFile.BACK_PRESSURE_AT;
    public static final int DROPPED_AT = MarketDataStatusFile.DROPPED_AT;
    public static final int LAG_EVENTS_AT = MarketDataStatusFile.LAG_EVENTS_AT;
    public static final int LAG_MICROS_AT = MarketDataStatusFile.LAG_MICROS_AT;
    public static final int SNAPSHOTS_AT = MarketDataStatusFile.SNAPSHOTS_AT;
    public static final int NOT_CONNECTED_AT = MarketDataStatusFile.NOT_CONNECTED_AT;
    public static final int STARTED_EPOCH_MILLIS_AT = MarketDataStatusFile.STARTED_EPOCH_MILLIS_AT;
    public static final int LAST_SENT_INDEX_AT = MarketDataStatusFile.LAST_SENT_INDEX_AT;
    public static final int EPOCH_AT = MarketDataStatusFile.EPOCH_AT;

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
