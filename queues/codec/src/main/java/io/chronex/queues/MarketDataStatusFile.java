package io.chronex.queues;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The layout of the market-data publisher's status file, {@code DATA/marketdata/status} (docs/marketdata.md, "Status
 * file"), and its reader: the publisher (marketdata module) writes it with these offsets, the monitor reads it here without
 * depending on the publisher (which would bring Aeron). A fixed {@value #LENGTH}-byte file of little-endian longs.
 */
public final class MarketDataStatusFile {
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
    /** The feed's epoch. */
    public static final int EPOCH_AT = 120;

    /**
     * The file as read: {@code problem} is null when it is the publisher's file of a known version, else it says why the
     * fields are not to be believed (all 0 then). {@code lastEventsIndex} is the last events index read,
     * {@code lastSentIndex} the last one published as an incremental (-1: none).
     */
    public record Snapshot(long pid, long heartbeatEpochMillis, long incrementals, long lastEventsIndex, long lastSeq,
                           long backPressured, long givenUp, long lagEvents, long lagMicros, long snapshots, long notConnected,
                           long startedEpochMillis, long lastSentIndex, long epoch, String problem) {
        static Snapshot bad(final String problem) {
            return new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, problem);
        }

        /** How old the heartbeat is at {@code nowEpochMillis} (the publisher updates it about once a second). */
        public long heartbeatAgeMillis(final long nowEpochMillis) {
            return nowEpochMillis - heartbeatEpochMillis;
        }
    }

    private MarketDataStatusFile() {
    }

    /** Reads the file without writing to it: null when there is none; a snapshot with a problem when it is not one we know. */
    public static Snapshot read(final Path file) {
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final NoSuchFileException e) {
            return null;
        } catch (final IOException e) {
            return Snapshot.bad("cannot read " + file.getFileName() + ": " + e.getMessage());
        }
        return read(new UnsafeBuffer(bytes), bytes.length);
    }

    /** Reads a status file's first {@code length} bytes in {@code b}. */
    public static Snapshot read(final UnsafeBuffer b, final int length) {
        if (length < LENGTH) {
            return Snapshot.bad("status file of " + length + " bytes, shorter than its " + LENGTH);
        }
        // The publisher zeroes the file and writes the magic last when it takes it over: 0 is a publisher starting.
        final long magic = b.getLong(MAGIC_AT);
        if (magic != MAGIC) {
            return Snapshot.bad(magic == 0 ? "status file being set up" : "not a market-data status file (magic 0x"
                + Long.toHexString(magic) + ")");
        }
        final long version = b.getLong(VERSION_AT);
        if (version != VERSION) {
            return Snapshot.bad("status file version " + version + ", this reader knows version " + VERSION);
        }
        return new Snapshot(b.getLong(PID_AT), b.getLong(HEARTBEAT_EPOCH_MILLIS_AT), b.getLong(MESSAGES_AT),
            b.getLong(LAST_EVENTS_INDEX_AT), b.getLong(SEQ_AT), b.getLong(BACK_PRESSURE_AT), b.getLong(DROPPED_AT),
            b.getLong(LAG_EVENTS_AT), b.getLong(LAG_MICROS_AT), b.getLong(SNAPSHOTS_AT), b.getLong(NOT_CONNECTED_AT),
            b.getLong(STARTED_EPOCH_MILLIS_AT), b.getLong(LAST_SENT_INDEX_AT), b.getLong(EPOCH_AT), null);
    }
}
