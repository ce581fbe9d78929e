package io.chronex.engine;

import io.chronex.api.Side;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.Arrays;

/**
 * The price levels of one side of a book, as a paged price ladder: a level's slot is found directly
 * from its price, so finding, adding and removing a level cost O(1) wherever it is in the book
 * (exchange-core's MOVE traffic lands hundreds of levels deep, where a sorted array spends its time
 * searching and shifting). Pages of {@value #PAGE_SIZE} consecutive prices are created on demand
 * and pooled; an occupancy bit set per page finds the next level by bit scan.
 *
 * <p>Prices map to keys that grow towards the best price (the price for bids, minus the price for
 * asks), divided by the price unit (the tick size when every price is known to be on tick, else 1),
 * so any long price works and a wide book costs pages, not time.
 */
final class BookSide {
    private static final int PAGE_BITS = 10;
    static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int SLOT_MASK = PAGE_SIZE - 1;
    private static final int WORDS = PAGE_SIZE / 64;

    /** A run of PAGE_SIZE consecutive keys. */
    private static final class Page {
        long number;
        int count;
        final PriceLevel[] slots = new PriceLevel[PAGE_SIZE];
        final long[] occupied = new long[WORDS];
        Page nextFree;
    }

    final Side side;
    private final long unit;
    private final Long2ObjectHashMap<Page> pages = new Long2ObjectHashMap<>(16, 0.5f);
    /** Page numbers in use, ascending, with their pages: walking to a worse level crosses pages in this order. */
    private long[] pageNumbers = new long[8];
    private Page[] pageList = new Page[8];
    private int pageCount;
    private Page lastPage;
    private Page freePages;

    private PriceLevel best;
    private int count;

    BookSide(final Side side, final long unit) {
        this.side = side;
        this.unit = unit;
    }

    /** Puts pages in the pool now, so the first visits to new price ranges allocate nothing. */
    void preallocatePages(final int count) {
        for (int i = 0; i < count; i++) {
            final Page page = new Page();
            page.nextFree = freePages;
            freePages = page;
        }
    }

    int count() {
        return count;
    }

    /** The best level, or null when the side is empty. */
    PriceLevel best() {
        return best;
    }

    private long key(final long price) {
        final long index = unit == 1 ? price : price / unit;
        return side == Side.BUY ? index : -index;
    }

    private Page page(final long number) {
        final Page last = lastPage;
        if (last != null && last.number == number) {
            return last;
        }
        final Page page = pages.get(number);
        if (page != null) {
            lastPage = page;
        }
        return page;
    }

    /** The level at this price, or null. */
    PriceLevel find(final long price) {
        final long key = key(price);
        final Page page = page(key >> PAGE_BITS);
        return page == null ? null : page.slots[(int) (key & SLOT_MASK)];
    }

    /** Adds a new, non-empty-to-be level for its price; the price must not be present. */
    void insert(final PriceLevel level) {
        final long key = key(level.price);
        final long number = key >> PAGE_BITS;
        Page page = page(number);
        if (page == null) {
            page = addPage(number);
        }
        final int slot = (int) (key & SLOT_MASK);
        page.slots[slot] = level;
        page.occupied[slot >>> 6] |= 1L << slot;
        page.count++;
        count++;
        if (best == null || key > key(best.price)) {
            best = level;
        }
    }

    /** Removes a level that is present. */
    void remove(final PriceLevel level) {
        if (level == best) {
            best = worseThan(level);
        }
        final long key = key(level.price);
        final Page page = page(key >> PAGE_BITS);
        final int slot = (int) (key & SLOT_MASK);
        page.slots[slot] = null;
        page.occupied[slot >>> 6] &= ~(1L << slot);
        count--;
        if (--page.count == 0) {
            removePage(page);
        }
    }

    /** The next level worse than this one (present) level, or null. */
    PriceLevel worseThan(final PriceLevel level) {
        final long key = key(level.price);
        Page page = page(key >> PAGE_BITS);
        int slot = (int) (key & SLOT_MASK) - 1;
        while (true) {
            if (slot >= 0) {
                int word = slot >>> 6;
                long bits = page.occupied[word] & (-1L >>> (63 - (slot & 63)));
                while (true) {
                    if (bits != 0) {
                        return page.slots[(word << 6) + 63 - Long.numberOfLeadingZeros(bits)];
                    }
                    if (--word < 0) {
                        break;
                    }
                    bits = page.occupied[word];
                }
            }
            final int index = Arrays.binarySearch(pageNumbers, 0, pageCount, page.number);
            if (index == 0) {
                return null;
            }
            page = pageList[index - 1];
            slot = PAGE_SIZE - 1;
        }
    }

    /** The level at depth (0 = best); walks from the best level, for queries rather than matching. */
    PriceLevel atDepth(final int depth) {
        if (depth < 0 || depth >= count) {
            throw new IndexOutOfBoundsException("depth " + depth + " of " + count + " levels");
        }
        PriceLevel level = best;
        for (int i = 0; i < depth; i++) {
            level = worseThan(level);
        }
        return level;
    }

    private Page addPage(final long number) {
        Page page = freePages;
        if (page == null) {
            page = new Page();
        } else {
            freePages = page.nextFree;
            page.nextFree = null;
        }
        page.number = number;
        page.count = 0;
        pages.put(number, page);
        if (pageCount == pageNumbers.length) {
            pageNumbers = Arrays.copyOf(pageNumbers, pageCount * 2);
            pageList = Arrays.copyOf(pageList, pageCount * 2);
        }
        final int insertAt = -Arrays.binarySearch(pageNumbers, 0, pageCount, number) - 1;
        System.arraycopy(pageNumbers, insertAt, pageNumbers, insertAt + 1, pageCount - insertAt);
        System.arraycopy(pageList, insertAt, pageList, insertAt + 1, pageCount - insertAt);
        pageNumbers[insertAt] = number;
        pageList[insertAt] = page;
        pageCount++;
        lastPage = page;
        return page;
    }

    private void removePage(final Page page) {
        pages.remove(page.number);
        final int index = Arrays.binarySearch(pageNumbers, 0, pageCount, page.number);
        System.arraycopy(pageNumbers, index + 1, pageNumbers, index, pageCount - index - 1);
        System.arraycopy(pageList, index + 1, pageList, index, pageCount - index - 1);
        pageCount--;
        pageList[pageCount] = null;
        if (lastPage == page) {
            lastPage = null;
        }
        page.nextFree = freePages;
        freePages = page;
    }
}
