package io.chronex.queues.book;

import io.chronex.api.LevelChange;
import io.chronex.api.Side;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.Arrays;

/**
 * Every symbol's price levels (an L2 book), rebuilt from the events' level changes alone: each change carries a
 * level's total quantity and order count after the command, so it replaces the level (quantity 0
 * removes it). Symbols in id order, levels best first. Shared by every reader that keeps books: the monitor,
 * the gateway's FIX market data, the market-data publisher and the feed client.
 *
 * <p>Applied for every level change a reader reads, so it keeps primitives in sorted arrays
 * rather than boxed prices in tree maps (which were a third of the monitor's CPU per excerpt); it allocates only
 * when a side grows past its largest size so far or a symbol is first seen.
 */
public final class Books {
    /** What applying a level change did to its level: {@link #ADDED}, {@link #CHANGED}, {@link #REMOVED} or {@link #NONE}. */
    public static final int NONE = 0;
    /** The level was not there and now is. */
    public static final int ADDED = 1;
    /** The level was there and still is, with the change's quantity and order count. */
    public static final int CHANGED = 2;
    /** The level was there and is gone (the change's quantity is 0). */
    public static final int REMOVED = 3;

    /** One side of one book: levels kept in arrays sorted so that the best is last, where most changes land. */
    public static final class Levels {
        private final boolean bids;
        /** Ascending order keys: the price for bids, its negation for asks, so the best level is always the last. */
        private long[] keys = new long[16];
        private long[] quantities = new long[16];
        private int[] orders = new int[16];
        private int size;

        Levels(final boolean bids) {
            this.bids = bids;
        }

        /** Price levels on this side. */
        public int size() {
            return size;
        }

        /** The price of the level at rank (0 = best). */
        public long price(final int rank) {
            final long key = keys[slot(rank)];
            return bids ? key : -key;
        }

        /** The total resting quantity of the level at rank (0 = best). */
        public long quantity(final int rank) {
            return quantities[slot(rank)];
        }

        /** The number of orders of the level at rank (0 = best). */
        public int orders(final int rank) {
            return orders[slot(rank)];
        }

        private int slot(final int rank) {
            if (rank < 0 || rank >= size) {
                throw new IndexOutOfBoundsException("rank " + rank + " of " + size + " levels");
            }
            return size - 1 - rank;
        }

        /** The rank (0 = best) of the level at this price, or -1 when there is none. */
        public int rankOf(final long price) {
            final int at = Arrays.binarySearch(keys, 0, size, bids ? price : -price);
            return at < 0 ? -1 : size - 1 - at;
        }

        /** Removes every level. */
        public void clear() {
            size = 0;
        }

        /**
         * Sets the level at this price to the quantity and order count (quantity 0 removes it); returns what that did
         * ({@link #ADDED}, {@link #CHANGED}, {@link #REMOVED}, or {@link #NONE} for a removal of a level not there).
         */
        public int apply(final long price, final long quantity, final int orderCount) {
            final long key = bids ? price : -price;
            final int at = Arrays.binarySearch(keys, 0, size, key);
            if (at >= 0) {
                if (quantity == 0) {
                    final int tail = size - at - 1;
                    System.arraycopy(keys, at + 1, keys, at, tail);
                    System.arraycopy(quantities, at + 1, quantities, at, tail);
                    System.arraycopy(orders, at + 1, orders, at, tail);
                    size--;
                    return REMOVED;
                }
                quantities[at] = quantity;
                orders[at] = orderCount;
                return CHANGED;
            }
            if (quantity != 0) {
                insert(-at - 1, key, quantity, orderCount);
                return ADDED;
            }
            return NONE;
        }

        private void insert(final int at, final long key, final long quantity, final int orderCount) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                quantities = Arrays.copyOf(quantities, size * 2);
                orders = Arrays.copyOf(orders, size * 2);
            }
            final int tail = size - at;
            System.arraycopy(keys, at, keys, at + 1, tail);
            System.arraycopy(quantities, at, quantities, at + 1, tail);
            System.arraycopy(orders, at, orders, at + 1, tail);
            keys[at] = key;
            quantities[at] = quantity;
            orders[at] = orderCount;
            size++;
        }
    }

    /** One symbol's two sides. */
    public static final class Book {
        private final Levels bids = new Levels(true);
        private final Levels asks = new Levels(false);

        /** The side's levels, best first. */
        public Levels levels(final Side side) {
            return side == Side.BUY ? bids : asks;
        }

        /** Removes every level of both sides. */
        public void clear() {
            bids.clear();
            asks.clear();
        }
    }

    private final Int2ObjectHashMap<Book> books = new Int2ObjectHashMap<>();
    /** The ids of the symbols in books, ascending; grows only when a symbol is first seen. */
    private int[] symbols = new int[0];

    /** Applies one level change; returns what it did to its level (see {@link Levels#apply}). */
    public int apply(final LevelChange change) {
        return bookOrNew(change.symbol).levels(change.side).apply(change.price, change.quantity, change.orderCount);
    }

    /** The symbol's book, created empty (and the symbol listed) when it was never seen. */
    public Book bookOrNew(final int symbol) {
        Book book = books.get(symbol);
        if (book == null) {
            book = new Book();
            books.put(symbol, book);
            final int at = -Arrays.binarySearch(symbols, symbol) - 1;
            final int[] grown = new int[symbols.length + 1];
            System.arraycopy(symbols, 0, grown, 0, at);
            grown[at] = symbol;
            System.arraycopy(symbols, at, grown, at + 1, symbols.length - at);
            symbols = grown;
        }
        return book;
    }

    /** The ids of the symbols that ever had a level, ascending (a copy). */
    public int[] symbols() {
        return symbols.clone();
    }

    /** Becomes a copy of {@code other}: every symbol's levels, both sides. */
    public void copyFrom(final Books other) {
        for (final int symbol : symbols()) {
            book(symbol).clear();
        }
        for (final int symbol : other.symbols()) {
            final Book from = other.book(symbol);
            final Book to = bookOrNew(symbol);
            for (final Side side : Side.values()) {
                final Levels levels = from.levels(side);
                for (int rank = 0; rank < levels.size(); rank++) {
                    to.levels(side).apply(levels.price(rank), levels.quantity(rank), levels.orders(rank));
                }
            }
        }
    }

    /** Writes every book (symbols ascending, each side best first) for {@link #readFrom}: a reader's checkpoint. */
    public void writeTo(final java.io.DataOutput out) throws java.io.IOException {
        out.writeInt(symbols.length);
        for (final int symbol : symbols) {
            out.writeInt(symbol);
            final Book book = books.get(symbol);
            for (final Side side : Side.values()) {
                final Levels levels = book.levels(side);
                out.writeInt(levels.size());
                for (int rank = 0; rank < levels.size(); rank++) {
                    out.writeLong(levels.price(rank));
                    out.writeLong(levels.quantity(rank));
                    out.writeInt(levels.orders(rank));
                }
            }
        }
    }

    /** Becomes what {@link #writeTo} wrote; an IllegalArgumentException when the bytes cannot be books. */
    public void readFrom(final java.nio.ByteBuffer in) {
        for (final int symbol : symbols()) {
            book(symbol).clear();
        }
        final int count = in.getInt();
        if (count < 0 || count > in.remaining() / Integer.BYTES) {
            throw new IllegalArgumentException("books: " + count + " symbols cannot be");
        }
        for (int i = 0; i < count; i++) {
            final Book book = bookOrNew(in.getInt());
            for (final Side side : Side.values()) {
                final int levels = in.getInt();
                if (levels < 0 || levels > in.remaining() / 20) {
                    throw new IllegalArgumentException("books: " + levels + " levels cannot be");
                }
                for (int rank = 0; rank < levels; rank++) {
                    book.levels(side).apply(in.getLong(), in.getLong(), in.getInt());
                }
            }
        }
    }

    /** The symbol's book, or null when no level of it was ever seen. */
    public Book book(final int symbol) {
        return books.get(symbol);
    }
}
