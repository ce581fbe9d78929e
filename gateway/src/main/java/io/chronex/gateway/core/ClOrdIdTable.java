package io.chronex.gateway.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * The ClOrdID text of every live order of this gateway's accounts, by (account, engine client
 * order id), in a memory-mapped file of the gateway's directory, so reports carry the client's
 * own text back after any restart: a {@link MappedKeyTable} of 96-byte slots.
 *
 * <p>Each entry counts its claims: a command that will make the id live (a NewOrderSingle, a
 * replace's new ClOrdID) claims it before it is journalled, and the result that ends that (a
 * reject, the order filled, cancelled or renamed) releases it once the reports for that result are
 * stored ({@link #releaseLater}, {@link #releaseStored}). So an entry goes only when nothing can
 * still need it; a crash can only leave an entry behind (it is still the right text for its id),
 * never lose one that is needed.
 *
 * <p>Crash safety (beyond {@link MappedKeyTable}'s): removal shifts later entries back one slot at a
 * time, each copy marked writing first and live last, so a kill -9 at any point leaves complete
 * slots, possibly one entry twice, which opening keeps once. The table grows at half full, into a
 * file twice the size.
 *
 * <p>Each entry also holds the order's third-party route ({@link Routes}; 0 = none) in the slot's
 * last four bytes, which no text reaches (28 + 64 = 92) and which files written before routes
 * existed hold as 0. A claim writes 0; the answer that makes the order live (a new order or a
 * replace accepted) sets the route of the request that did it, with one aligned store
 * ({@link #route(long, long, int)}).
 */
public final class ClOrdIdTable extends MappedKeyTable {
    /** What {@link #claim} found. */
    public enum Claim {
        /** The id is claimed for this text (a new entry, or one more claim on the same text). */
        CLAIMED,
        /** Another text holds the id in this account: two ClOrdIDs hash alike, the new one cannot be used now. */
        COLLISION
    }

    /** What to do about a table that cannot be trusted. */
    public static final String REBUILD_HINT = "With the gateway stopped, rebuild the table from the journal with bin/gateway"
        + " --rebuild-clordids --data-dir DIR --config FILE --id N, then start the gateway again.";
    /** The route of an order sent on the session's own behalf (no third-party route). */
    public static final int NO_ROUTE = 0;
    public static final int MIN_CAPACITY = 1 << 12;
    /** 2^24 slots of 96 bytes is 1.5 GiB, the most one UnsafeBuffer maps; 8 million live orders. */
    public static final int MAX_CAPACITY = 1 << 24;
    private static final long MAGIC = 0x3144_524F_4C43_5843L; // "CXCLORD1" read little-endian
    private static final int SLOT = 96;
    // Besides MappedKeyTable's state (0), account (8) and id (16):
    private static final int CLAIMS = 4;
    private static final int LENGTH = 24;
    private static final int TEXT = 28;
    private static final int ROUTE = 92;
    /** A slot being copied into during removal: not an entry until marked live. */
    private static final int WRITING = 2;

    /** Releases waiting for the reports of their result to be stored: account, id pairs. */
    private long[] pending = new long[256];
    private int pendingCount;
    /** The route of the entry {@link #text} found last (0 when it found none). */
    private int foundRoute;

    /** Opens (or creates) the table in file, rebuilding it from what a previous run left. */
    public ClOrdIdTable(final Path file) {
        super(file, "ClOrdID table", MAGIC, SLOT, MIN_CAPACITY, MAX_CAPACITY);
    }

    /**
     * Claims (account, id) for the ClOrdID text at buffer[offset, offset + length) before a command
     * using it is journalled.
     */
    public Claim claim(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(account, id);
        if (slot >= 0) {
            if (!textEquals(slot, buffer, offset, length)) {
                return Claim.COLLISION;
            }
            slots.putInt(slot + CLAIMS, slots.getInt(slot + CLAIMS) + 1);
            return Claim.CLAIMED;
        }
        if (size + 1 > (mask + 1) >>> 1) {
            grow();
        }
        final int free = freeSlot(account, id);
        slots.putInt(free + CLAIMS, 1);
        slots.putLong(free + ACCOUNT, account);
        slots.putLong(free + ID, id);
        slots.putInt(free + LENGTH, length);
        slots.putBytes(free + TEXT, buffer, offset, length);
        // A slot used before may hold another entry's route.
        slots.putInt(free + ROUTE, NO_ROUTE);
        slots.putIntRelease(free + STATE, LIVE);
        size++;
        return Claim.CLAIMED;
    }

    /** Whether (account, id) is held by a text other than the given one (a cancel naming it would reach another order). */
    public boolean heldByAnother(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(account, id);
        return slot >= 0 && !textEquals(slot, buffer, offset, length);
    }

    /** Copies the text of (account, id) into dst and returns its length, or 0 if there is none; {@link #foundRoute} is its route. */
    public int text(final long account, final long id, final byte[] dst) {
        final int slot = find(account, id);
        if (slot < 0) {
            foundRoute = NO_ROUTE;
            return 0;
        }
        foundRoute = slots.getInt(slot + ROUTE);
        final int length = slots.getInt(slot + LENGTH);
        slots.getBytes(slot + TEXT, dst, 0, length);
        return length;
    }

    /** The route of the entry the last {@link #text} found (0 when none). */
    public int foundRoute() {
        return foundRoute;
    }

    /** The route of (account, id), 0 when it has none or is not in the table. */
    public int route(final long account, final long id) {
        final int slot = find(account, id);
        return slot < 0 ? NO_ROUTE : slots.getInt(slot + ROUTE);
    }

    /** Sets the route of (account, id) if it is in the table (written only when it changes). */
    public void route(final long account, final long id, final int route) {
        final int slot = find(account, id);
        if (slot >= 0 && slots.getInt(slot + ROUTE) != route) {
            slots.putIntRelease(slot + ROUTE, route);
        }
    }

    /** The highest route a live entry names (0: none), for the start-up check against the routes file. */
    public int maxRoute() {
        return maxInt(ROUTE);
    }

    /** One live entry, for {@link #forEach}. */
    public interface Entry {
        void entry(long account, long id, DirectBuffer text, int offset, int length);
    }

    /** Every live entry, in slot order. */
    public void forEach(final Entry visitor) {
        for (int i = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE) {
                visitor.entry(slots.getLong(slot + ACCOUNT), slots.getLong(slot + ID), slots, slot + TEXT, slots.getInt(slot + LENGTH));
            }
        }
    }

    /**
     * Every live entry as account, id, claims, text length (short) and text, after their count: a gateway checkpoint's
     * ClOrdIDs ({@link #readLive}). Straight from the slots, in one loop: the gateway's thread waits.
     */
    public void writeLive(final java.nio.ByteBuffer out) {
        final int countAt = out.position();
        out.putInt(0);
        int count = 0;
        for (int i = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE) {
                final int length = slots.getInt(slot + LENGTH);
                out.putLong(slots.getLong(slot + ACCOUNT)).putLong(slots.getLong(slot + ID)).putInt(slots.getInt(slot + CLAIMS))
                    .putShort((short) length);
                slots.getBytes(slot + TEXT, out, out.position(), length);
                out.position(out.position() + length);
                count++;
            }
        }
        out.putInt(countAt, count);
    }

    /** Whether (account, id) is live with exactly this text. */
    public boolean holds(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(account, id);
        return slot >= 0 && textEquals(slot, buffer, offset, length);
    }

    /** Notes a release, applied by {@link #releaseStored} once the reports of the result that caused it are stored. */
    public void releaseLater(final long account, final long id) {
        if (pendingCount + 2 > pending.length) {
            pending = java.util.Arrays.copyOf(pending, pending.length * 2);
        }
        pending[pendingCount++] = account;
        pending[pendingCount++] = id;
    }

    /**
     * Applies the releases noted since the last call: the reports they came with are stored, so a
     * restart will not read those results again. (Released before, a restart that reads them again
     * would release twice and lose a text still needed; after, a crash in between leaves entries
     * behind, which is harmless.)
     */
    public void releaseStored() {
        for (int i = 0; i < pendingCount; i += 2) {
            release(pending[i], pending[i + 1]);
        }
        pendingCount = 0;
    }

    /** Releases one claim on (account, id) now; the entry goes with its last claim. Unknown ids are ignored. */
    public void release(final long account, final long id) {
        final int slot = find(account, id);
        if (slot < 0) {
            return;
        }
        final int claims = slots.getInt(slot + CLAIMS) - 1;
        slots.putInt(slot + CLAIMS, claims);
        if (claims <= 0) {
            remove(slot);
        }
    }

    /** Removes the entry at slot, shifting back the entries that probed past it (no tombstones, so lookups never degrade). */
    private void remove(final int slot) {
        int gap = index(slot);
        int index = gap;
        while (true) {
            index = (index + 1) & mask;
            final int at = slot(index);
            if (slots.getInt(at + STATE) != LIVE) {
                break;
            }
            final int home = home(slots.getLong(at + ACCOUNT), slots.getLong(at + ID), mask);
            // Move the entry into the gap unless its home lies cyclically in (gap, index].
            final boolean homeBetween = gap <= index ? (home > gap && home <= index) : (home > gap || home <= index);
            if (!homeBetween) {
                final int to = slot(gap);
                slots.putIntRelease(to + STATE, WRITING);
                slots.putBytes(to + CLAIMS, slots, at + CLAIMS, SLOT - CLAIMS);
                slots.putIntRelease(to + STATE, LIVE);
                gap = index;
            }
        }
        slots.putIntRelease(slot(gap) + STATE, EMPTY);
        size--;
    }

    private boolean textEquals(final int slot, final DirectBuffer buffer, final int offset, final int length) {
        if (slots.getInt(slot + LENGTH) != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (slots.getByte(slot + TEXT + i) != buffer.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        if (capacity() >= MAX_CAPACITY) {
            throw new IllegalStateException("the ClOrdID table " + file + " is full: " + size + " live orders");
        }
        rebuild(capacity() * 2);
    }

    /** A slot that holds a whole entry still claimed: marked live, with a text of a possible length. */
    @Override
    protected boolean entry(final UnsafeBuffer from, final int slot) {
        final int length = from.getInt(slot + LENGTH);
        return from.getInt(slot + STATE) == LIVE && from.getInt(slot + CLAIMS) > 0 && length >= 1 && length <= ClientOrderIds.MAX_LENGTH;
    }

    /** Refuses a state no writer sets, or a live entry whose id is not the hash of its text (every id here is one). */
    @Override
    protected void check(final UnsafeBuffer from, final int index) {
        final int slot = slot(index);
        final int state = from.getInt(slot + STATE);
        final String damaged;
        if (state != EMPTY && state != LIVE && state != WRITING) {
            damaged = "has state " + state;
        } else if (entry(from, slot)
            && ClientOrderIds.hash(from, slot + TEXT, from.getInt(slot + LENGTH)) != from.getLong(slot + ID)) {
            damaged = "holds id " + from.getLong(slot + ID) + " for a text whose id is not that";
        } else if (state == LIVE && !entry(from, slot) && from.getInt(slot + CLAIMS) > 0) {
            damaged = "is live with a text length of " + from.getInt(slot + LENGTH);
        } else {
            return;
        }
        throw new IllegalStateException(file + " is damaged: slot " + index + " " + damaged
            + "; the ClOrdIDs of live orders cannot be trusted. " + REBUILD_HINT);
    }

    /** Per live ClOrdID besides its text: account, id, claims, length. */
    private static final int LIVE_FIXED = 2 * Long.BYTES + Integer.BYTES + Short.BYTES;
    /** The most bytes {@link #writeLive} writes per live ClOrdID. */
    public static final int LIVE_ENTRY_MAX_BYTES = LIVE_FIXED + ClientOrderIds.MAX_LENGTH;

    /** Reads the live ClOrdIDs {@link #writeLive} wrote, handing each to {@code into} with its claims. */
    public static void readLive(final java.nio.ByteBuffer in, final LiveEntries into) {
        final int count = in.getInt();
        if (count < 0 || count > in.remaining() / LIVE_FIXED) {
            throw new IllegalArgumentException("live ClOrdIDs: " + count + " cannot be");
        }
        final UnsafeBuffer text = new UnsafeBuffer(new byte[ClientOrderIds.MAX_LENGTH]);
        for (int i = 0; i < count; i++) {
            final long account = in.getLong();
            final long id = in.getLong();
            final int claims = in.getInt();
            final int length = in.getShort();
            if (length < 1 || length > ClientOrderIds.MAX_LENGTH || claims < 1) {
                throw new IllegalArgumentException("live ClOrdIDs: an entry of " + length + " bytes and " + claims + " claims cannot be");
            }
            for (int b = 0; b < length; b++) {
                text.putByte(b, in.get());
            }
            into.entry(account, id, claims, text, length);
        }
    }

    /** Receives the live ClOrdIDs of a checkpoint. */
    public interface LiveEntries {
        void entry(long account, long id, int claims, UnsafeBuffer text, int length);
    }
}
