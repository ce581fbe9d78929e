package io.chronex.gateway.core;

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
 * A hash table keyed by (account, id) in a memory-mapped file of the gateway's directory, which a
 * kill -9 cannot leave unreadable: what {@link ClOrdIdTable} and {@link RequestRoutes} have in
 * common. The file is a 64-byte header (magic, capacity) and then a power of two of fixed slots,
 * each starting with its state (int at 0), account (long at 8) and id (long at 16); the rest of a
 * slot, and how an entry goes, are the subclass's. Open addressing with linear probing.
 *
 * <p>Crash safety: a slot is written field by field and marked live last with an ordered store, and
 * whatever a subclass does to remove an entry it marks the same way, so a kill -9 at any point
 * leaves only complete slots (which ones count as an entry is the subclass's {@link #entry}).
 * Opening rebuilds the table into a fresh file (entries only, each key once) and renames it into
 * place, so nothing a kill left half done is ever probed. Growth (whenever the subclass asks) is the
 * same rebuild into a larger file: the only time anything is allocated.
 */
public abstract class MappedKeyTable implements AutoCloseable {
    protected static final int STATE = 0;
    protected static final int ACCOUNT = 8;
    protected static final int ID = 16;
    protected static final int EMPTY = 0;
    protected static final int LIVE = 1;
    private static final int HEADER = 64;
    private static final int MAGIC_OFFSET = 0;
    private static final int CAPACITY_OFFSET = 8;
    /** Where an entry starts once its state is left aside: a rebuild copies the slot from here on. */
    private static final int AFTER_STATE = 4;

    protected final Path file;
    protected final UnsafeBuffer slots = new UnsafeBuffer(0, 0);
    protected int mask;
    /** Live entries. */
    protected int size;
    private final String name;
    private final long magic;
    private final int slotSize;
    private final int minCapacity;
    private final int maxCapacity;
    private MappedByteBuffer mapped;

    /**
     * Opens (or creates) the table in file, rebuilding it from what a previous run left.
     *
     * @param name what the table is called in messages ("ClOrdID table")
     */
    protected MappedKeyTable(final Path file, final String name, final long magic, final int slotSize, final int minCapacity,
                   final int maxCapacity) {
        this.file = file;
        this.name = name;
        this.magic = magic;
        this.slotSize = slotSize;
        this.minCapacity = minCapacity;
        this.maxCapacity = maxCapacity;
        try {
            Files.deleteIfExists(temporary());
            if (Files.exists(file)) {
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    final MappedByteBuffer old = raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, raf.length());
                    try {
                        rebuild(new UnsafeBuffer(old), 0, true);
                    } finally {
                        IoUtil.unmap(old);
                    }
                }
            } else {
                rebuild(null, minCapacity, false);
            }
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open the " + name + " " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether the slot of from holds an entry to keep. Called from this class's constructor too,
     * before the subclass's fields are set: it may use from, this class's members and constants only.
     */
    protected abstract boolean entry(UnsafeBuffer from, int slot);

    /**
     * Throws if the slot at index of from cannot have been written by this class: a slot overwritten
     * by anything else is refused rather than dropped or believed. Only the table's own file is
     * checked this way, when opening (it is the one a disk or a person can damage); called from the
     * constructor as {@link #entry} is, with the same limits.
     */
    protected abstract void check(UnsafeBuffer from, int index);

    /** Live entries. */
    public int size() {
        return size;
    }

    public int capacity() {
        return mask + 1;
    }

    /** The byte offset of the slot at index. */
    protected final int slot(final int index) {
        return HEADER + index * slotSize;
    }

    /** The index of the slot at byte offset slot. */
    protected final int index(final int slot) {
        return (slot - HEADER) / slotSize;
    }

    /** The largest int at offset in a live slot, or 0 when none is larger: for the start-up checks. */
    protected final int maxInt(final int offset) {
        int max = 0;
        for (int i = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE) {
                max = Math.max(max, slots.getInt(slot + offset));
            }
        }
        return max;
    }

    /** The byte offset of the live slot holding (account, id), or -1. */
    protected final int find(final long account, final long id) {
        return find(slots, mask, account, id);
    }

    /**
     * The byte offset of the first slot on (account, id)'s probe path that is not live: empty, or one
     * a subclass let go of (a slot mid-removal is never there while an entry is being added).
     */
    protected final int freeSlot(final long account, final long id) {
        return freeSlot(slots, mask, account, id);
    }

    protected static int home(final long account, final long id, final int mask) {
        long h = account * 0x9E3779B97F4A7C15L + id;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    /** Rebuilds the table from itself into a file of at least minCapacity slots (and at most half full). */
    protected final void rebuild(final int minCapacity) {
        try {
            rebuild(slots, minCapacity, false);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot grow the " + name + " " + file + ": " + e.getMessage(), e);
        }
    }

    private int find(final UnsafeBuffer in, final int inMask, final long account, final long id) {
        int i = home(account, id, inMask);
        while (true) {
            final int slot = slot(i);
            final int state = in.getInt(slot + STATE);
            if (state == EMPTY) {
                return -1;
            }
            if (state == LIVE && in.getLong(slot + ID) == id && in.getLong(slot + ACCOUNT) == account) {
                return slot;
            }
            i = (i + 1) & inMask;
        }
    }

    private int freeSlot(final UnsafeBuffer in, final int inMask, final long account, final long id) {
        int i = home(account, id, inMask);
        while (in.getInt(slot(i) + STATE) == LIVE) {
            i = (i + 1) & inMask;
        }
        return slot(i);
    }

    /**
     * Writes every entry of from (null: none) once into a new file of at least minCapacity slots (and
     * at most half full), renames it over the table's file and maps it.
     */
    private void rebuild(final UnsafeBuffer from, final int minCapacity, final boolean opening) throws IOException {
        int fromCapacity = 0;
        int live = 0;
        if (from != null) {
            if (from.capacity() < HEADER || from.getLong(MAGIC_OFFSET) != magic) {
                throw new IllegalStateException(file + " is not a " + name);
            }
            fromCapacity = from.getInt(CAPACITY_OFFSET);
            if (Integer.bitCount(fromCapacity) != 1 || HEADER + (long) fromCapacity * slotSize > from.capacity()) {
                throw new IllegalStateException(file + " is not a " + name + " (capacity " + fromCapacity + ")");
            }
            for (int i = 0; i < fromCapacity; i++) {
                if (opening) {
                    check(from, i);
                }
                live += entry(from, slot(i)) ? 1 : 0;
            }
        }
        int capacity = Math.max(this.minCapacity, minCapacity);
        while (capacity < maxCapacity && live + 1 > capacity >>> 1) {
            capacity <<= 1;
        }
        final Path temporary = temporary();
        final MappedByteBuffer fresh;
        try (RandomAccessFile raf = new RandomAccessFile(temporary.toFile(), "rw")) {
            raf.setLength(HEADER + (long) capacity * slotSize);
            fresh = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) capacity * slotSize);
        }
        final UnsafeBuffer to = new UnsafeBuffer(fresh);
        to.putInt(CAPACITY_OFFSET, capacity);
        final int toMask = capacity - 1;
        int copied = 0;
        for (int i = 0; i < fromCapacity; i++) {
            final int slot = slot(i);
            final long account = from.getLong(slot + ACCOUNT);
            final long id = from.getLong(slot + ID);
            // A half-done removal may have left an entry twice: each key once.
            if (entry(from, slot) && find(to, toMask, account, id) < 0) {
                final int free = freeSlot(to, toMask, account, id);
                to.putBytes(free + AFTER_STATE, from, slot + AFTER_STATE, slotSize - AFTER_STATE);
                to.putInt(free + STATE, LIVE);
                copied++;
            }
        }
        // The magic last: a file without it is not taken for a table.
        to.putLongRelease(MAGIC_OFFSET, magic);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
        mapped = fresh;
        slots.wrap(fresh);
        mask = toMask;
        size = copied;
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
