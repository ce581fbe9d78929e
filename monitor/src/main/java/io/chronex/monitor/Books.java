package io.chronex.monitor;

import io.chronex.api.LevelChange;
import io.chronex.api.Side;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.Arrays;

/**
 * Every symbol's price levels, rebuilt from the events' level changes alone: each change carries a
 * level's total quantity and order count after the command, so it replaces the level (quantity 0
 * removes it). Symbols in id order, levels best first.
 *
 * <p>Applied for every level change the monitor reads, so it keeps primitives in sorted arrays
 * rather than boxed prices in tree maps (which were a third of the monitor's CPU per excerpt).
 */
public final class Books {
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

        void apply(final long price, final long quantity, final int orderCount) {
            final long key = bids ? price : -price;
            final int at = Arrays.binarySearch(keys, 0, size, key);
            if (at >= 0) {
                if (quantity == 0) {
                    final int tail = size - at - 1;
                    System.arraycopy(keys, at + 1, keys, at, tail);
                    System.arraycopy(quantities, at + 1, quantities, at, tail);
                    System.arraycopy(orders, at + 1, orders, at, tail);
                    size--;
                } else {
                    quantities[at] = quantity;
                    orders[at] = orderCount;
                }
            } else if (quantity != 0) {
                insert(-at - 1, key, quantity, orderCount);
            }
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
    }

    private final Int2ObjectHashMap<Book> books = new Int2ObjectHashMap<>();
    /** The ids of the symbols in books, ascending; grows only when a symbol is first seen. */
    private int[] symbols = new int[0];

    public void apply(final LevelChange change) {
        Book book = books.get(change.symbol);
        if (book == null) {
            book = new Book();
            books.put(change.symbol, book);
            final int at = -Arrays.binarySearch(symbols, change.symbol) - 1;
            final int[] grown = new int[symbols.length + 1];
            System.arraycopy(symbols, 0, grown, 0, at);
            grown[at] = change.symbol;
            System.arraycopy(symbols, at, grown, at + 1, symbols.length - at);
            symbols = grown;
        }
        book.levels(change.side).apply(change.price, change.quantity, change.orderCount);
    }

    /** The ids of the symbols that ever had a level, ascending (a copy). */
    public int[] symbols() {
        return symbols.clone();
    }

    /** The symbol's book, or null when no level of it was ever seen. */
    public Book book(final int symbol) {
        return books.get(symbol);
    }
}
