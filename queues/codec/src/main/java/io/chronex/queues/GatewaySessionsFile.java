package io.chronex.queues;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A gateway's sessions as it publishes them for readers in other processes (the monitor, audit
 * tools): a small memory-mapped file, {@code gateways/N/sessions}, with one fixed-size slot per
 * configured session. The gateway writes it with plain and ordered stores (no allocation, no lock,
 * no system call); a reader maps it read-only with {@link #read} and never writes.
 *
 * <p>Layout (native byte order, little-endian on every machine we run on). Header, 64 bytes:
 * <pre>
 *   0  i64 magic "CXGWSESS" (0x5353_4553_5747_5843)
 *   8  i32 version (1)
 *  12  i32 number of slots (the sessions configured for this gateway)
 *  16  i32 slot length in bytes (192 since market data; 128 in files of gateways before it)
 *  20  i32 gateway id
 *  24  i64 when the gateway wrote the file (epoch ms, at its start)
 *  32  i64 the writing gateway's pid
 *  40  24 bytes reserved (0)
 * </pre>
 * Then each slot, {@code slot length} bytes:
 * <pre>
 *   0  i64 change count: odd while the gateway is updating the slot (a sequence lock)
 *   8  i32 state: 1 logged on, 0 not
 *  12  i32 reserved (0)
 *  16  i64 messages received from the client since the gateway started
 *  24  i64 messages given to the client's outbound sequence since the gateway started
 *  32  i64 MsgSeqNum of the last message received (before the first: the last one the gateway had, from its state file)
 *  40  i64 MsgSeqNum of the last message sent (before the first: the last in the outbound store)
 *  48  i64 last logon, epoch ms (0: none since the gateway started)
 *  56  i64 last logout or disconnect, epoch ms (0: none since the gateway started)
 *  64  SenderCompID, US-ASCII, NUL padded, 32 bytes (the client's, as the gateway configuration names it)
 *  96  TargetCompID, US-ASCII, NUL padded, 32 bytes (the gateway's compId)
 *     Market data (FIX, docs/gateway.md), in a slot of 192 bytes or more (read as 0 in a 128-byte slot):
 * 128  i64 live market-data subscriptions of the session's current connection
 * 136  i64 1 while its subscriptions are stale (it fell behind: no X until it has caught up and is re-snapshotted), else 0
 * 144  i64 slow-subscriber episodes since the gateway started (times its subscriptions went stale)
 * 152  i64 MarketDataSnapshotFullRefresh (W) sent since the gateway started, re-snapshots included
 * 160  i64 MarketDataIncrementalRefresh (X) sent since the gateway started
 * 168  24 bytes reserved (0)
 * </pre>
 * Compatibility: a later version may make the slot longer to add fields at its end without changing
 * the version (a reader uses the header's slot length to step and reads the fields it knows); the
 * version changes only when a field above changes meaning, and a reader refuses versions it does not
 * know, saying so.
 *
 * <p>The gateway writes a new file at every start (all sessions logged off, counts 0) into a
 * temporary file renamed over the old one, so a reader never sees a half-written header and a reader
 * mapping the old file is not cut off under its feet. A gateway killed with -9 leaves its last state
 * (sessions may read as logged on): a reader checks the gateway's pid file to know whether it runs.
 */
public final class GatewaySessionsFile implements AutoCloseable {
    public static final int VERSION = 1;
    /** "CXGWSESS" read as a little-endian long. */
    public static final long MAGIC = 0x5353_4553_5747_5843L;
    public static final int MAX_COMP_ID = 32;

    // The header:
    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 8;
    private static final int SLOTS_OFFSET = 12;
    private static final int SLOT_LENGTH_OFFSET = 16;
    private static final int GATEWAY_OFFSET = 20;
    private static final int WRITTEN_OFFSET = 24;
    private static final int PID_OFFSET = 32;
    public static final int HEADER_LENGTH = 64;
    // A slot:
    private static final int CHANGES_OFFSET = 0;
    private static final int STATE_OFFSET = 8;
    private static final int IN_OFFSET = 16;
    private static final int OUT_OFFSET = 24;
    private static final int LAST_IN_SEQ_OFFSET = 32;
    private static final int LAST_OUT_SEQ_OFFSET = 40;
    private static final int LOGON_OFFSET = 48;
    private static final int LOGOUT_OFFSET = 56;
    private static final int SENDER_OFFSET = 64;
    private static final int TARGET_OFFSET = 96;
    private static final int MD_SUBSCRIPTIONS_OFFSET = 128;
    private static final int MD_STALE_OFFSET = 136;
    private static final int MD_EPISODES_OFFSET = 144;
    private static final int MD_SNAPSHOTS_OFFSET = 152;
    private static final int MD_INCREMENTALS_OFFSET = 160;
    /** The slot of gateways before market data: no market-data fields. */
    static final int SLOT_LENGTH_V1 = 128;
    public static final int SLOT_LENGTH = 192;
    /** More slots than any gateway configures; a header claiming more is not believed. */
    public static final int MAX_SLOTS = 65_536;
    /** Tries of a reader for a slot the gateway is changing; after them the slot is read as it is (each field is whole). */
    private static final int READ_ATTEMPTS = 10_000;

    /** One session as a reader sees it. Sequence numbers are 0 when none is known. */
    public record Session(String senderCompId, String targetCompId, boolean loggedOn, long messagesIn, long messagesOut,
                          long lastInboundSeqNum, long lastOutboundSeqNum, long lastLogonEpochMillis, long lastLogoutEpochMillis,
                          MarketData marketData) {
        /** With no market data (a file of a gateway before it, or a session that never subscribed). */
        public Session(final String senderCompId, final String targetCompId, final boolean loggedOn, final long messagesIn,
                       final long messagesOut, final long lastInboundSeqNum, final long lastOutboundSeqNum, final long lastLogonEpochMillis,
                       final long lastLogoutEpochMillis) {
            this(senderCompId, targetCompId, loggedOn, messagesIn, messagesOut, lastInboundSeqNum, lastOutboundSeqNum,
                lastLogonEpochMillis, lastLogoutEpochMillis, MarketData.NONE);
        }
    }

    /**
     * A session's FIX market data: live subscriptions now, whether they are stale (waiting for the client to catch up),
     * and counts since the gateway started.
     */
    public record MarketData(long subscriptions, boolean stale, long staleEpisodes, long snapshots, long incrementals) {
        public static final MarketData NONE = new MarketData(0, false, 0, 0, 0);
    }

    /**
     * What a reader made of the file: {@code problem} is null and {@code sessions} holds every slot
     * when it could be read; otherwise {@code problem} says why not (a newer version, truncated, not
     * such a file) and {@code sessions} is empty.
     */
    public record Snapshot(int version, int gatewayId, long writtenEpochMillis, long writerPid, List<Session> sessions, String problem) {
        /** Sessions logged on. */
        public int loggedOn() {
            int n = 0;
            for (final Session s : sessions) {
                if (s.loggedOn()) {
                    n++;
                }
            }
            return n;
        }

        static Snapshot bad(final String problem) {
            return new Snapshot(0, 0, 0, 0, List.of(), problem);
        }
    }

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int slots;

    /**
     * Writes a fresh file for these sessions (SenderCompIDs, in slot order; {@code targetCompId} the
     * gateway's compId), all logged off with counts 0, and maps it for writing.
     */
    public GatewaySessionsFile(final Path file, final int gatewayId, final List<String> senderCompIds, final String targetCompId,
                               final long epochMillis) {
        slots = senderCompIds.size();
        if (slots > MAX_SLOTS) {
            throw new IllegalArgumentException(slots + " sessions: at most " + MAX_SLOTS);
        }
        final long length = HEADER_LENGTH + (long) SLOT_LENGTH * slots;
        final Path temporary = file.resolveSibling(file.getFileName() + ".new");
        try (RandomAccessFile raf = new RandomAccessFile(temporary.toFile(), "rw")) {
            raf.setLength(0);
            raf.setLength(length);
            mapped = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot write " + temporary + ": " + e.getMessage(), e);
        }
        buffer = new UnsafeBuffer(mapped);
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(SLOTS_OFFSET, slots);
        buffer.putInt(SLOT_LENGTH_OFFSET, SLOT_LENGTH);
        buffer.putInt(GATEWAY_OFFSET, gatewayId);
        buffer.putLong(WRITTEN_OFFSET, epochMillis);
        buffer.putLong(PID_OFFSET, ProcessHandle.current().pid());
        for (int i = 0; i < slots; i++) {
            putCompId(slotOffset(i) + SENDER_OFFSET, senderCompIds.get(i));
            putCompId(slotOffset(i) + TARGET_OFFSET, targetCompId);
        }
        buffer.putLongOrdered(MAGIC_OFFSET, MAGIC);
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            IoUtil.unmap(mapped);
            throw new IllegalStateException("cannot rename " + temporary + " to " + file + ": " + e.getMessage(), e);
        }
    }

    private void putCompId(final int at, final String compId) {
        final byte[] bytes = compId.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_COMP_ID) {
            throw new IllegalArgumentException("CompID " + compId + " is longer than " + MAX_COMP_ID + " characters");
        }
        buffer.putBytes(at, bytes);
    }

    private static int slotOffset(final int slot) {
        return HEADER_LENGTH + slot * SLOT_LENGTH;
    }

    public int slots() {
        return slots;
    }

    /** Opens a change of a slot: its change count becomes odd before any field is stored. */
    private int begin(final int slot) {
        final int at = slotOffset(slot);
        buffer.putLongOrdered(at + CHANGES_OFFSET, buffer.getLong(at + CHANGES_OFFSET) + 1);
        VarHandle.storeStoreFence();
        return at;
    }

    /** Closes a change: the count becomes even again after every field is stored. */
    private void end(final int at) {
        buffer.putLongOrdered(at + CHANGES_OFFSET, buffer.getLong(at + CHANGES_OFFSET) + 1);
    }

    /** The sequence numbers the gateway starts with (from its state file and outbound store), before any message. */
    public void sequenceNumbers(final int slot, final long lastInbound, final long lastOutbound) {
        final int at = begin(slot);
        buffer.putLong(at + LAST_IN_SEQ_OFFSET, lastInbound);
        buffer.putLong(at + LAST_OUT_SEQ_OFFSET, lastOutbound);
        end(at);
    }

    /** A client logged on to the session. */
    public void loggedOn(final int slot, final long epochMillis) {
        final int at = begin(slot);
        buffer.putInt(at + STATE_OFFSET, 1);
        buffer.putLong(at + LOGON_OFFSET, epochMillis);
        end(at);
    }

    /** The session's connection is gone (after a Logout, a cut, a drop): logged off. */
    public void loggedOff(final int slot, final long epochMillis) {
        final int at = begin(slot);
        buffer.putInt(at + STATE_OFFSET, 0);
        buffer.putLong(at + LOGOUT_OFFSET, epochMillis);
        end(at);
    }

    /** A message from the client; its MsgSeqNum as it carried it (0 or less: it had none readable, the last is kept). */
    public void messageIn(final int slot, final long msgSeqNum) {
        final int at = begin(slot);
        buffer.putLong(at + IN_OFFSET, buffer.getLong(at + IN_OFFSET) + 1);
        if (msgSeqNum > 0) {
            buffer.putLong(at + LAST_IN_SEQ_OFFSET, msgSeqNum);
        }
        end(at);
    }

    /**
     * The session's market data changed (a subscription, an unsubscribe, a W or X sent, it went stale or was
     * re-snapshotted): its counts as {@code MarketDataService} keeps them.
     */
    public void marketData(final int slot, final long subscriptions, final boolean stale, final long staleEpisodes,
                           final long snapshots, final long incrementals) {
        final int at = begin(slot);
        buffer.putLong(at + MD_SUBSCRIPTIONS_OFFSET, subscriptions);
        buffer.putLong(at + MD_STALE_OFFSET, stale ? 1 : 0);
        buffer.putLong(at + MD_EPISODES_OFFSET, staleEpisodes);
        buffer.putLong(at + MD_SNAPSHOTS_OFFSET, snapshots);
        buffer.putLong(at + MD_INCREMENTALS_OFFSET, incrementals);
        end(at);
    }

    /** A message given the session's next outbound MsgSeqNum (stored, then written now or resent on the next logon). */
    public void messageOut(final int slot, final long msgSeqNum) {
        final int at = begin(slot);
        buffer.putLong(at + OUT_OFFSET, buffer.getLong(at + OUT_OFFSET) + 1);
        buffer.putLong(at + LAST_OUT_SEQ_OFFSET, msgSeqNum);
        end(at);
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }

    // ------------------------------------------------------------------ reading

    /**
     * Reads a gateway's file (running or not) without writing to it: null when there is none, a
     * snapshot with a {@code problem} when it is not one this reader understands (never an exception
     * for what the file holds).
     */
    public static Snapshot read(final Path file) {
        final long size;
        final MappedByteBuffer mapped;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            size = raf.length();
            if (size < HEADER_LENGTH) {
                return Snapshot.bad(file.getFileName() + " is " + size + " bytes, shorter than its " + HEADER_LENGTH + "-byte header"
                    + " (truncated, or not a sessions file)");
            }
            // Only what is there now: a reader never touches a page past the end it saw.
            mapped = raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, Math.min(size, HEADER_LENGTH + (long) MAX_SLOTS * 1024));
        } catch (final java.io.FileNotFoundException e) {
            return Files.exists(file) ? Snapshot.bad("cannot open " + file.getFileName() + ": " + e.getMessage()) : null;
        } catch (final IOException e) {
            return Snapshot.bad("cannot read " + file.getFileName() + ": " + e.getMessage());
        }
        try {
            return read(new UnsafeBuffer(mapped), mapped.capacity());
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    /** Reads a file's bytes in {@code b} (its first {@code length} bytes); public for tests and tools that hold the bytes. */
    public static Snapshot read(final UnsafeBuffer b, final long length) {
        if (length < HEADER_LENGTH) {
            return Snapshot.bad("sessions file of " + length + " bytes is shorter than its header");
        }
        if (b.getLongVolatile(MAGIC_OFFSET) != MAGIC) {
            return Snapshot.bad("not a gateway sessions file (magic 0x" + Long.toHexString(b.getLong(MAGIC_OFFSET)) + ")");
        }
        final int version = b.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            return new Snapshot(version, 0, 0, 0, List.of(), "sessions file version " + version + ", this reader knows version "
                + VERSION + (version > VERSION ? " (written by a newer gateway)" : ""));
        }
        final int slots = b.getInt(SLOTS_OFFSET);
        final int slotLength = b.getInt(SLOT_LENGTH_OFFSET);
        if (slots < 0 || slots > MAX_SLOTS || slotLength < SLOT_LENGTH_V1 || slotLength > 1024 || slotLength % 8 != 0) {
            return Snapshot.bad("sessions file header is damaged (" + slots + " slots of " + slotLength + " bytes)");
        }
        final long needed = HEADER_LENGTH + (long) slots * slotLength;
        if (length < needed) {
            return Snapshot.bad("sessions file is truncated: " + length + " bytes, its header needs " + needed + " for " + slots
                + " sessions");
        }
        final List<Session> sessions = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            sessions.add(readSlot(b, HEADER_LENGTH + i * slotLength, slotLength >= MD_INCREMENTALS_OFFSET + 8));
        }
        return new Snapshot(version, b.getInt(GATEWAY_OFFSET), b.getLong(WRITTEN_OFFSET), b.getLong(PID_OFFSET), List.copyOf(sessions),
            null);
    }

    private static Session readSlot(final UnsafeBuffer b, final int at, final boolean withMarketData) {
        for (int attempt = 0; ; attempt++) {
            final long before = b.getLongVolatile(at + CHANGES_OFFSET);
            if ((before & 1) != 0 && attempt < READ_ATTEMPTS) {
                Thread.onSpinWait();
                continue;
            }
            final boolean loggedOn = b.getInt(at + STATE_OFFSET) == 1;
            final long in = b.getLong(at + IN_OFFSET);
            final long out = b.getLong(at + OUT_OFFSET);
            final long lastIn = b.getLong(at + LAST_IN_SEQ_OFFSET);
            final long lastOut = b.getLong(at + LAST_OUT_SEQ_OFFSET);
            final long logon = b.getLong(at + LOGON_OFFSET);
            final long logout = b.getLong(at + LOGOUT_OFFSET);
            final MarketData md = withMarketData ? new MarketData(b.getLong(at + MD_SUBSCRIPTIONS_OFFSET),
                b.getLong(at + MD_STALE_OFFSET) != 0, b.getLong(at + MD_EPISODES_OFFSET), b.getLong(at + MD_SNAPSHOTS_OFFSET),
                b.getLong(at + MD_INCREMENTALS_OFFSET)) : MarketData.NONE;
            VarHandle.loadLoadFence();
            // Same even count before and after: no change in between. A gateway killed mid-change leaves it odd: read as it is.
            if (b.getLongVolatile(at + CHANGES_OFFSET) == before || attempt >= READ_ATTEMPTS) {
                return new Session(compId(b, at + SENDER_OFFSET), compId(b, at + TARGET_OFFSET), loggedOn, in, out, lastIn, lastOut,
                    logon, logout, md);
            }
        }
    }

    /** A NUL-padded CompID; anything not printable ASCII (a damaged file) shows as '?'. */
    private static String compId(final UnsafeBuffer b, final int at) {
        final StringBuilder sb = new StringBuilder(MAX_COMP_ID);
        for (int i = 0; i < MAX_COMP_ID; i++) {
            final byte c = b.getByte(at + i);
            if (c == 0) {
                break;
            }
            sb.append(c > 0x20 && c < 0x7F ? (char) c : '?');
        }
        return sb.toString();
    }
}
