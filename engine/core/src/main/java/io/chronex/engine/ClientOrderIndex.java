package io.chronex.engine;

/**
 * Live orders by (account, client order id): open addressing with linear probing over one array of
 * the orders themselves, comparing the orders' own fields, so a lookup touches one slot array and
 * the order it was going to read anyway. Written here rather than taken from Agrona because the
 * composite key would otherwise need a second array of mixed keys and a collision chain; measured
 * in docs/performance.md. Grows (allocating) only when half full; removal shifts entries back, so
 * there are no tombstones and lookups never degrade.
 */
final class ClientOrderIndex {
    private Order[] slots;
    private int mask;
    private int size;

    ClientOrderIndex(final int expectedOrders) {
        final int capacity = Math.max(16, Integer.highestOneBit(Math.max(1, expectedOrders)) << 2);
        slots = new Order[capacity];
        mask = capacity - 1;
    }

    private static int home(final long account, final long clientOrderId, final int mask) {
        long h = account * 0x9E3779B97F4A7C15L + clientOrderId;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    Order get(final long account, final long clientOrderId) {
        final Order[] slots = this.slots;
        final int mask = this.mask;
        int index = home(account, clientOrderId, mask);
        Order order;
        while ((order = slots[index]) != null) {
            if (order.clientOrderId == clientOrderId && order.accountId == account) {
                return order;
            }
            index = (index + 1) & mask;
        }
        return null;
    }

    /** Adds an order whose (account, client order id) is not present. */
    void add(final Order order) {
        if (++size > (mask + 1) >>> 1) {
            grow();
        }
        insert(slots, mask, order);
    }

    private static void insert(final Order[] slots, final int mask, final Order order) {
        int index = home(order.accountId, order.clientOrderId, mask);
        while (slots[index] != null) {
            index = (index + 1) & mask;
        }
        slots[index] = order;
    }

    /** Removes an order that is present, shifting back the entries that probed past its slot. */
    void remove(final Order order) {
        final Order[] slots = this.slots;
        final int mask = this.mask;
        int gap = home(order.accountId, order.clientOrderId, mask);
        while (slots[gap] != order) {
            gap = (gap + 1) & mask;
        }
        int index = gap;
        while (true) {
            index = (index + 1) & mask;
            final Order next = slots[index];
            if (next == null) {
                break;
            }
            final int home = home(next.accountId, next.clientOrderId, mask);
            // Move next into the gap unless its home lies cyclically in (gap, index].
            final boolean homeBetween = gap <= index ? (home > gap && home <= index) : (home > gap || home <= index);
            if (!homeBetween) {
                slots[gap] = next;
                gap = index;
            }
        }
        slots[gap] = null;
        size--;
    }

    int size() {
        return size;
    }

    private void grow() {
        final Order[] old = slots;
        final Order[] grown = new Order[old.length * 2];
        final int grownMask = grown.length - 1;
        for (final Order order : old) {
            if (order != null) {
                insert(grown, grownMask, order);
            }
        }
        slots = grown;
        mask = grownMask;
    }
}
