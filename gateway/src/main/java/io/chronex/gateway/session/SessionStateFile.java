package io.chronex.gateway.session;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The inbound side of every session's sequence numbers, in a small memory-mapped file: the next
 * MsgSeqNum expected from each client, and where in the journal to start looking on a restart.
 * Stores into the mapping are plain memory writes (no system call), and reach the file even if the
 * process is killed; only a machine crash can lose the last ones, which the journal scan on start
 * (see {@link #scanFrom()}) puts right for every message that reached the journal.
 *
 * <p>Layout: a 64-byte header (magic, version, scan-from journal index) and then one 64-byte slot per
 * session: SenderCompID (32 bytes, NUL padded), next expected inbound MsgSeqNum (i64), the journal
 * index of its last sequence reset (i64), whether a client was logged on (i64) and the last outbound
 * MsgSeqNum known to be in the outbound store (i64). The last three were added in place of padding that
 * older files hold as 0, which reads as "no reset seen, not connected, nothing known to be stored".
 *
 * <p>Each field is one aligned 8-byte store, so a kill -9 leaves every field either old or new,
 * never torn; where two fields change together the order of the stores is what makes every
 * interleaving with a kill safe (see {@link #reset} and {@link #connected(int, boolean)}).
 */
public final class SessionStateFile implements AutoCloseable {
    public static final int MAX_SESSIONS = 4096;
    private static final long MAGIC = 0x4358_5353_5441_5431L; // "CXSSTAT1"
    private static final long VERSION = 1;

    // The header, from the file's start:
    private static final int MAGIC_OFFSET = 0;              // i64 MAGIC; 0 in a fresh file
    private static final int VERSION_OFFSET = 8;            // i64 VERSION
    private static final int SCAN_FROM_OFFSET = 16;         // i64 journal index, -1: none
    private static final int HEADER_LENGTH = 64;            // then the slots
    // A session's slot, from the slot's start:
    private static final int NAME_OFFSET = 0;               // SenderCompID, US-ASCII, NUL padded; NUL first: slot free
    private static final int NAME_LENGTH = 32;
    private static final int EXPECTED_OFFSET = 32;          // i64 next expected inbound MsgSeqNum
    private static final int RESET_AT_OFFSET = 40;          // i64 journal index; 0 or -1: no reset seen
    private static final int CONNECTED_OFFSET = 48;         // i64 1 while a client is logged on, else 0
    private static final int STORED_OFFSET = 56;            // i64 last outbound MsgSeqNum in the outbound store, 0: none
    private static final int SLOT_LENGTH = 64;

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;

    public SessionStateFile(final Path file) {
        final long size = HEADER_LENGTH + (long) SLOT_LENGTH * MAX_SESSIONS;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            final boolean fresh = raf.length() == 0;
            if (!fresh && raf.length() != size) {
                throw new IllegalStateException(file + " is " + raf.length() + " bytes, a session state file is " + size
                    + "; it is damaged or not ours");
            }
            raf.setLength(size);
            mapped = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open session state " + file + ": " + e.getMessage(), e);
        }
        buffer = new UnsafeBuffer(mapped);
        // The magic goes in last, so a file whose creation was cut short is set up again.
        if (buffer.getLong(MAGIC_OFFSET) == 0) {
            buffer.putLong(VERSION_OFFSET, VERSION);
            buffer.putLong(SCAN_FROM_OFFSET, -1);
            buffer.putLong(MAGIC_OFFSET, MAGIC);
        } else if (buffer.getLong(MAGIC_OFFSET) != MAGIC) {
            throw new IllegalStateException(file + " is not a chronex session state file");
        }
    }

    /** The slot of a session, claimed on first use; its expected inbound sequence starts at 1. */
    public int slot(final String senderCompId) {
        final byte[] name = senderCompId.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < MAX_SESSIONS; i++) {
            final int at = slotOffset(i);
            if (buffer.getByte(at + NAME_OFFSET) == 0) {
                buffer.putLong(at + EXPECTED_OFFSET, 1);
                buffer.putLong(at + RESET_AT_OFFSET, -1);
                buffer.putLong(at + CONNECTED_OFFSET, 0);
                buffer.putBytes(at + NAME_OFFSET, name);
                return i;
            }
            if (nameEquals(at, name)) {
                return i;
            }
        }
        throw new IllegalStateException("more than " + MAX_SESSIONS + " sessions in one gateway's state file");
    }

    private static int slotOffset(final int slot) {
        return HEADER_LENGTH + slot * SLOT_LENGTH;
    }

    private boolean nameEquals(final int at, final byte[] name) {
        for (int i = 0; i < NAME_LENGTH; i++) {
            final byte expected = i < name.length ? name[i] : 0;
            if (buffer.getByte(at + NAME_OFFSET + i) != expected) {
                return false;
            }
        }
        return true;
    }

    public long expectedInbound(final int slot) {
        return buffer.getLong(slotOffset(slot) + EXPECTED_OFFSET);
    }

    public void expectedInbound(final int slot, final long seq) {
        buffer.putLong(slotOffset(slot) + EXPECTED_OFFSET, seq);
    }

    /**
     * A sequence reset (ResetSeqNumFlag=Y): the next expected MsgSeqNum is 1 again, and every
     * command of this session at or before {@code journalIndex} (the journal's last index when the
     * reset happened) carries a number from before it, which a restart's journal scan must not take.
     * The index is stored first: a kill between the two stores leaves the old expected number with
     * nothing after the index to scan, which is the state before the reset (the client's Logon got
     * no answer, so it resets again).
     */
    public void reset(final int slot, final long journalIndex) {
        // Lowered before the store's reset mark is written: a kill between leaves the store ahead, which is allowed.
        buffer.putLong(slotOffset(slot) + STORED_OFFSET, 0);
        buffer.putLong(slotOffset(slot) + RESET_AT_OFFSET, journalIndex);
        buffer.putLong(slotOffset(slot) + EXPECTED_OFFSET, 1);
    }

    /** The journal index of this session's last sequence reset: its commands at or before it are from before the reset. */
    public long resetAt(final int slot) {
        final long at = buffer.getLong(slotOffset(slot) + RESET_AT_OFFSET);
        return at == 0 ? -1 : at;
    }

    /**
     * Whether a client was logged on to this session: set at logon, before the Logon is answered, and
     * cleared once a disconnect has been dealt with (a cancel on disconnect journalled), so a gateway
     * that finds it set on start knows it died with the client connected.
     */
    public boolean connected(final int slot) {
        return buffer.getLong(slotOffset(slot) + CONNECTED_OFFSET) != 0;
    }

    public void connected(final int slot, final boolean connected) {
        buffer.putLong(slotOffset(slot) + CONNECTED_OFFSET, connected ? 1 : 0);
    }

    /**
     * The last outbound MsgSeqNum of this session known to be in the outbound store: stored after the store's append
     * (so the store is never behind it, but may be ahead of it by what a kill interrupted), and checked against the
     * store at start, where a store that lost its tail (cut short, an older copy) is behind it.
     */
    public long lastStoredOutbound(final int slot) {
        return buffer.getLong(slotOffset(slot) + STORED_OFFSET);
    }

    public void lastStoredOutbound(final int slot, final long seq) {
        buffer.putLong(slotOffset(slot) + STORED_OFFSET, seq);
    }

    /**
     * A journal index at or before every command this gateway appended whose sequence number might
     * not be in the slots yet; -1 when it never appended anything.
     */
    public long scanFrom() {
        return buffer.getLong(SCAN_FROM_OFFSET);
    }

    public void scanFrom(final long index) {
        buffer.putLong(SCAN_FROM_OFFSET, index);
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
