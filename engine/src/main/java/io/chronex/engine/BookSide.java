package io.chronex.engine;

import io.chronex.engine.api.Side;

import java.util.Arrays;

/**
 * The price levels of one side of a book, in an array sorted from worst to best so that the best
 * level is the last element: taking or emptying the best level touches only the array's end, and
 * new levels usually land near it. Levels are found by binary search over a parallel array of keys
 * (the price for bids, minus the price for asks, so "better" is always "greater").
 */
final class BookSide {
    final Side side;
    private PriceLevel[] levels = new PriceLevel[64];
    private long[] keys = new long[64];
    private int count;

    BookSide(final Side side) {
        this.side = side;
    }

    int count() {
        return count;
    }

    /** The best level, or null when the side is empty. */
    PriceLevel best() {
        return count == 0 ? null : levels[count - 1];
    }

    /** The level at depth (0 = best). */
    PriceLevel atDepth(final int depth) {
        return levels[count - 1 - depth];
    }

    /** The level at array index (0 = worst): lets callers walk from best down while removing. */
    PriceLevel atIndex(final int index) {
        return levels[index];
    }

    private long key(final long price) {
        return side == Side.BUY ? price : -price;
    }

    /** Index of the level with this key, or -(insertion point) - 1. Scans the top few first: most activity is near the best. */
    private int search(final long key) {
        final int top = count - 1;
        final int stop = Math.max(0, count - 4);
        for (int i = top; i >= stop; i--) {
            final long k = keys[i];
            if (k == key) {
                return i;
            }
            if (k < key) {
                return -(i + 1) - 1;
            }
        }
        return stop == 0 ? -1 : Arrays.binarySearch(keys, 0, stop, key);
    }

    /** The level at this price, or null. */
    PriceLevel find(final long price) {
        final int index = search(key(price));
        return index >= 0 ? levels[index] : null;
    }

    /** Inserts a new, empty level for its price; the price must not be present. */
    void insert(final PriceLevel level) {
        final long key = key(level.price);
        final int insertAt = -search(key) - 1;
        if (count == levels.length) {
            levels = Arrays.copyOf(levels, count * 2);
            keys = Arrays.copyOf(keys, count * 2);
        }
        final int tailLength = count - insertAt;
        if (tailLength > 0) {
            System.arraycopy(levels, insertAt, levels, insertAt + 1, tailLength);
            System.arraycopy(keys, insertAt, keys, insertAt + 1, tailLength);
        }
        levels[insertAt] = level;
        keys[insertAt] = key;
        count++;
    }

    /** Removes a level that is present. */
    void remove(final PriceLevel level) {
        final int index = search(key(level.price));
        final int tailLength = count - index - 1;
        if (tailLength > 0) {
            System.arraycopy(levels, index + 1, levels, index, tailLength);
            System.arraycopy(keys, index + 1, keys, index, tailLength);
        }
        count--;
        levels[count] = null;
    }
}
