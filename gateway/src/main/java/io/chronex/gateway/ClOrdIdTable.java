package io.chronex.gateway;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The ClOrdID text of every live order of this gateway's accounts, by (account, engine client
 * order id), in a memory-mapped file of the gateway's directory, so reports carry the client's
 * own text back after any restart. Open addressing with linear probing over fixed 96-byte slots.
 *
 * <p>Each entry counts its claims: a command that will make the id live (a NewOrderSingle, a
 * replace's new ClOrdID) claims it before it is journalled, and the result that ends that (a
 * reject, the order filled, cancelled or renamed) releases it once the reports for that result are
 * stored ({@link #releaseLater}, {@link #releaseStored}). So an entry goes only when nothing can
 * still need it; a crash can only leave an entry behind (it is still the right text for its id),
 * never lose one that is needed.
 *
 * <p>Crash safety: a slot is written field by field and marked live last with an ordered store, and
 * removal shifts later entries back one slot at a time, each copy marked the same way; so a kill -9
 * at any point leaves complete slots, possibly one entry twice. Opening rebuilds the table into a
 * fresh file (complete live slots only, each key once) and renames it into place. Growth (at half
 * full) is the same rebuild into a file twice the size: the only time anything is allocated.
 *
 * <p>Each entry also holds the order's third-party route ({@link Routes}; 0 = none) in the slot's
 * last four bytes, which no text reaches (28 + 64 = 92) and which files written before routes
 * existed hold as 0. A claim writes 0; the answer that makes the order live (a new order or a
 * replace accepted) sets the route of the request that did it, with one aligned store
 * ({@link #route(long, long, int)}).
 */
final class ClOrdIdTable implements AutoCloseable {
    /** What {@link #claim} found. */
    enum Claim {
        /** The id is claimed for this text (a new entry, or one more claim on the same text). */
        CLAIMED,
        /** Another text holds the id in this account: two ClOrdIDs hash alike, the new one cannot be used now. */
        COLLISION
    }

    static final int MIN_CAPACITY = 1 << 12;
    /** 2^24 slots of 96 bytes is 1.5 GiB, the most one UnsafeBuffer maps; 8 million live orders. */
    static final int MAX_CAPACITY = 1 << 24;
    private static final long MAGIC = 0x3144_524F_4C43_5843L; // "CXCLORD1" read little-endian
    private static final int HEADER = 64;
    private static final int MAGIC_OFFSET = 0;
    private static final int CAPACITY_OFFSET = 8;
    private static final int SLOT = 96;
    private static final int STATE = 0;
    private static final int CLAIMS = 4;
    private static final int ACCOUNT = 8;
    private static final int ID = 16;
    private static final int LENGTH = 24;
    private static final int TEXT = 28;
    private static final int ROUTE = 92;
    private static final int EMPTY = 0;
    private static final int LIVE = 1;
    /** A slot being copied into during removal: not an entry until marked live. */
    private static final int WRITING = 2;

    private final Path file;
    private MappedByteBuffer mapped;
    private final UnsafeBuffer slots = new UnsafeBuffer(0, 0);
    private int mask;
    private int size;
    /** Releases waiting for the reports of their result to be stored: account, id pairs. */
    private long[] pending = new long[256];
    private int pendingCount;
    /** The route of the entry {@link #text} found last (0 when it found none). */
    private int foundRoute;

    /** Opens (or creates) the table in file, rebuilding it from what a previous run left. */
    ClOrdIdTable(final Path file) {
        this.file = file;
        final Path temporary = temporary();
        try {
            Files.deleteIfExists(temporary);
            if (Files.exists(file)) {
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    final MappedByteBuffer old = raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, raf.length());
                    try {
                        rebuild(new UnsafeBuffer(old), 0, file + " is not a ClOrdID table");
                    } finally {
                        IoUtil.unmap(old);
                    }
                }
            } else {
                rebuild(null, MIN_CAPACITY, null);
            }
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open the ClOrdID table " + file + ": " + e.getMessage(), e);
        }
    }

    /** Live entries. */
    int size() {
        return size;
    }

    int capacity() {
        return mask + 1;
    }

    /**
     * Claims (account, id) for the ClOrdID text at buffer[offset, offset + length) before a command
     * using it is journalled.
     */
    Claim claim(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(slots, mask, account, id);
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
        final int free = freeSlot(slots, mask, account, id);
        slots.putInt(free + CLAIMS, 1);
        slots.putLong(free + ACCOUNT, account);
        slots.putLong(free + ID, id);
        slots.putInt(free + LENGTH, length);
        slots.putBytes(free + TEXT, buffer, offset, length);
        // A slot used before may hold another entry's route.
        slots.putInt(free + ROUTE, Routes.NONE);
        slots.putIntRelease(free + STATE, LIVE);
        size++;
        return Claim.CLAIMED;
    }

    /** Whether (account, id) is held by a text other than the given one (a cancel naming it would reach another order). */
    boolean heldByAnother(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(slots, mask, account, id);
        return slot >= 0 && !textEquals(slot, buffer, offset, length);
    }

    /** Copies the text of (account, id) into dst and returns its length, or 0 if there is none; {@link #foundRoute} is its route. */
    int text(final long account, final long id, final byte[] dst) {
        final int slot = find(slots, mask, account, id);
        if (slot < 0) {
            foundRoute = Routes.NONE;
            return 0;
        }
        foundRoute = slots.getInt(slot + ROUTE);
        final int length = slots.getInt(slot + LENGTH);
        slots.getBytes(slot + TEXT, dst, 0, length);
        return length;
    }

    /** The route of the entry the last {@link #text} found (0 when none). */
    int foundRoute() {
        return foundRoute;
    }

    /** The route of (account, id), 0 when it has none or is not in the table. */
    int route(final long account, final long id) {
        final int slot = find(slots, mask, account, id);
        return slot < 0 ? Routes.NONE : slots.getInt(slot + ROUTE);
    }

    /** Sets the route of (account, id) if it is in the table (written only when it changes). */
    void route(final long account, final long id, final int route) {
        final int slot = find(slots, mask, account, id);
        if (slot >= 0 && slots.getInt(slot + ROUTE) != route) {
            slots.putIntRelease(slot + ROUTE, route);
        }
    }

    /** The highest route a live entry names (0: none), for the start-up check against the routes file. */
    int maxRoute() {
        int max = Routes.NONE;
        for (int i = 0; i <= mask; i++) {
            final int slot = HEADER + i * SLOT;
            if (slots.getInt(slot + STATE) == LIVE) {
                max = Math.max(max, slots.getInt(slot + ROUTE));
            }
        }
        return max;
    }

    /** One live entry, for {@link #forEach}. */
    interface Entry {
        void entry(long account, long id, DirectBuffer text, int offset, int length);
    }

    /** Every live entry, in slot order. */
    void forEach(final Entry visitor) {
        for (int i = 0; i <= mask; i++) {
            final int slot = HEADER + i * SLOT;
            if (slots.getInt(slot + STATE) == LIVE) {
                visitor.entry(slots.getLong(slot + ACCOUNT), slots.getLong(slot + ID), slots, slot + TEXT, slots.getInt(slot + LENGTH));
            }
        }
    }

    /** Whether (account, id) is live with exactly this text. */
    boolean holds(final long account, final long id, final DirectBuffer buffer, final int offset, final int length) {
        final int slot = find(slots, mask, account, id);
        return slot >= 0 && textEquals(slot, buffer, offset, length);
    }

    /** Notes a release, applied by {@link #releaseStored} once the reports of the result that caused it are stored. */
    void releaseLater(final long account, final long id) {
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
    void releaseStored() {
        for (int i = 0; i < pendingCount; i += 2) {
            release(pending[i], pending[i + 1]);
        }
        pendingCount = 0;
    }

    /** Releases one claim on (account, id) now; the entry goes with its last claim. Unknown ids are ignored. */
    void release(final long account, final long id) {
        final int slot = find(slots, mask, account, id);
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
        int gap = (slot - HEADER) / SLOT;
        int index = gap;
        while (true) {
            index = (index + 1) & mask;
            final int at = HEADER + index * SLOT;
            if (slots.getInt(at + STATE) != LIVE) {
                break;
            }
            final int home = home(slots.getLong(at + ACCOUNT), slots.getLong(at + ID), mask);
            // Move the entry into the gap unless its home lies cyclically in (gap, index].
            final boolean homeBetween = gap <= index ? (home > gap && home <= index) : (home > gap || home <= index);
            if (!homeBetween) {
                final int to = HEADER + gap * SLOT;
                slots.putIntRelease(to + STATE, WRITING);
                slots.putBytes(to + CLAIMS, slots, at + CLAIMS, SLOT - CLAIMS);
                slots.putIntRelease(to + STATE, LIVE);
                gap = index;
            }
        }
        slots.putIntRelease(HEADER + gap * SLOT + STATE, EMPTY);
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

    /** The byte offset of the live slot holding (account, id), or -1. */
    private static int find(final UnsafeBuffer slots, final int mask, final long account, final long id) {
        int i = home(account, id, mask);
        while (true) {
            final int slot = HEADER + i * SLOT;
            final int state = slots.getInt(slot + STATE);
            if (state == EMPTY) {
                return -1;
            }
            if (state == LIVE && slots.getLong(slot + ID) == id && slots.getLong(slot + ACCOUNT) == account) {
                return slot;
            }
            i = (i + 1) & mask;
        }
    }

    /** The byte offset of the first empty slot on (account, id)'s probe path. */
    private static int freeSlot(final UnsafeBuffer slots, final int mask, final long account, final long id) {
        int i = home(account, id, mask);
        while (slots.getInt(HEADER + i * SLOT + STATE) != EMPTY) {
            i = (i + 1) & mask;
        }
        return HEADER + i * SLOT;
    }

    private static int home(final long account, final long id, final int mask) {
        long h = account * 0x9E3779B97F4A7C15L + id;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    private void grow() {
        if (mask + 1 >= MAX_CAPACITY) {
            throw new IllegalStateException("the ClOrdID table " + file + " is full: " + size + " live orders");
        }
        try {
            rebuild(slots, (mask + 1) * 2, null);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot grow the ClOrdID table " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes every complete live entry of from (null: none) once into a new file of at least
     * minCapacity slots (and at most half full), renames it over the table's file and maps it.
     */
    private void rebuild(final UnsafeBuffer from, final int minCapacity, final String notATable) throws IOException {
        int fromCapacity = 0;
        int live = 0;
        if (from != null) {
            if (from.capacity() < HEADER || from.getLong(MAGIC_OFFSET) != MAGIC) {
                throw new IllegalStateException(notATable);
            }
            fromCapacity = from.getInt(CAPACITY_OFFSET);
            if (Integer.bitCount(fromCapacity) != 1 || HEADER + (long) fromCapacity * SLOT > from.capacity()) {
                throw new IllegalStateException(notATable + " (capacity " + fromCapacity + ")");
            }
            for (int i = 0; i < fromCapacity; i++) {
                if (notATable != null) {
                    checkSlot(from, i);
                }
                live += complete(from, HEADER + i * SLOT) ? 1 : 0;
            }
        }
        int capacity = Math.max(MIN_CAPACITY, minCapacity);
        while (capacity < MAX_CAPACITY && live + 1 > capacity >>> 1) {
            capacity <<= 1;
        }
        final Path temporary = temporary();
        final MappedByteBuffer fresh;
        try (RandomAccessFile raf = new RandomAccessFile(temporary.toFile(), "rw")) {
            raf.setLength(HEADER + (long) capacity * SLOT);
            fresh = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) capacity * SLOT);
        }
        final UnsafeBuffer to = new UnsafeBuffer(fresh);
        to.putInt(CAPACITY_OFFSET, capacity);
        final int toMask = capacity - 1;
        int copied = 0;
        for (int i = 0; i < fromCapacity; i++) {
            final int slot = HEADER + i * SLOT;
            final long account = from.getLong(slot + ACCOUNT);
            final long id = from.getLong(slot + ID);
            // A half-done removal may have left an entry twice: each key once.
            if (complete(from, slot) && find(to, toMask, account, id) < 0) {
                final int free = freeSlot(to, toMask, account, id);
                to.putBytes(free + CLAIMS, from, slot + CLAIMS, SLOT - CLAIMS);
                to.putInt(free + STATE, LIVE);
                copied++;
            }
        }
        // The magic last: a file without it is not taken for a table.
        to.putLongRelease(MAGIC_OFFSET, MAGIC);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
        mapped = fresh;
        slots.wrap(fresh);
        mask = toMask;
        size = copied;
    }

    /**
     * A slot overwritten by anything but this class is refused rather than dropped or believed: a
     * state no writer sets, or a live entry whose id is not the hash of its text (every id here is one).
     * Only the table's own file is checked this way: it is the one a disk or a person can damage.
     */
    private void checkSlot(final UnsafeBuffer from, final int index) {
        final int slot = HEADER + index * SLOT;
        final int state = from.getInt(slot + STATE);
        final String damaged;
        if (state != EMPTY && state != LIVE && state != WRITING) {
            damaged = "has state " + state;
        } else if (complete(from, slot)
            && ClientOrderIds.hash(from, slot + TEXT, from.getInt(slot + LENGTH)) != from.getLong(slot + ID)) {
            damaged = "holds id " + from.getLong(slot + ID) + " for a text whose id is not that";
        } else if (state == LIVE && !complete(from, slot) && from.getInt(slot + CLAIMS) > 0) {
            damaged = "is live with a text length of " + from.getInt(slot + LENGTH);
        } else {
            return;
        }
        throw new IllegalStateException(file + " is damaged: slot " + index + " " + damaged
            + "; the ClOrdIDs of live orders cannot be trusted. " + ClOrdIdCheck.REBUILD_HINT);
    }

    /** A slot that holds a whole entry still claimed: marked live, with a text of a possible length. */
    private static boolean complete(final UnsafeBuffer from, final int slot) {
        final int length = from.getInt(slot + LENGTH);
        return from.getInt(slot + STATE) == LIVE && from.getInt(slot + CLAIMS) > 0 && length >= 1 && length <= ClientOrderIds.MAX_LENGTH;
    }

    private Path temporary() {
        return file.resolveSibling(file.getFileName() + ".tmp");
    }

    @Override
    public void close() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
            mapped = null;
        }
    }
}
