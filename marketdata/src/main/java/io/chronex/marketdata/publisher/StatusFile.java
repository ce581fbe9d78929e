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
 * The publisher's status for the monitor: DATA/marketdata/status, a fixed-length file of little-endian
 * longs, memory-mapped and rewritten in place about once a second (docs/marketdata.md, "Status file"). A reader maps it
 * too and reads the longs; the heartbeat (wall-clock millis) says whether the publisher is alive.
 */
public final class StatusFile implements AutoCloseable {

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
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, MarketDataStatusFile.LENGTH);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        buffer = new UnsafeBuffer(mapped);
        // The layout is MarketDataStatusFile's (queues/codec), defined once where the monitor reads it.
        final boolean ours = buffer.getLong(MarketDataStatusFile.MAGIC_AT) == MarketDataStatusFile.MAGIC
            && buffer.getLong(MarketDataStatusFile.VERSION_AT) == MarketDataStatusFile.VERSION;
        previousLastSentIndex = ours ? buffer.getLong(MarketDataStatusFile.LAST_SENT_INDEX_AT) : -1;
        final long previousEpoch = ours ? buffer.getLong(MarketDataStatusFile.EPOCH_AT) : 0;
        epoch = previousEpoch != 0 ? previousEpoch : newEpoch();
        buffer.setMemory(0, MarketDataStatusFile.LENGTH, (byte) 0);
        buffer.putLong(MarketDataStatusFile.VERSION_AT, MarketDataStatusFile.VERSION);
        buffer.putLong(MarketDataStatusFile.PID_AT, ProcessHandle.current().pid());
        buffer.putLong(MarketDataStatusFile.STARTED_EPOCH_MILLIS_AT, System.currentTimeMillis());
        // The predecessor's resume point stays until this publisher sends its first message: killed during its rebuild (long
        // on a long queue), it leaves the next one the same point instead of none.
        buffer.putLong(MarketDataStatusFile.LAST_SENT_INDEX_AT, previousLastSentIndex);
        buffer.putLong(MarketDataStatusFile.EPOCH_AT, epoch);
        buffer.putLongVolatile(MarketDataStatusFile.MAGIC_AT, MarketDataStatusFile.MAGIC);
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
        buffer.putLongVolatile(MarketDataStatusFile.EPOCH_AT, epoch);
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
        buffer.putLongOrdered(MarketDataStatusFile.LAST_SENT_INDEX_AT, eventsIndex);
    }

    /** Sets one field (an offset above). */
    public void put(final int at, final long value) {
        buffer.putLongVolatile(at, value);
    }


    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
