package io.chronex.engine;

import io.chronex.api.Side;

/** One price on one side of a book: its orders oldest first, with their total quantity. */
final class PriceLevel {
    long price;
    Side side;
    long quantity;
    int orderCount;
    Order head;
    Order tail;
    /** Free-list link while pooled. */
    PriceLevel nextFree;

    void append(final Order order) {
        order.level = this;
        order.prev = tail;
        order.next = null;
        if (tail == null) {
            head = order;
        } else {
            tail.next = order;
        }
        tail = order;
        quantity += order.leaves;
        orderCount++;
    }

    /** Unlinks the order; the caller has already taken its traded quantity off {@link #quantity}. */
    void unlink(final Order order) {
        final Order prev = order.prev;
        final Order next = order.next;
        if (prev == null) {
            head = next;
        } else {
            prev.next = next;
        }
        if (next == null) {
            tail = prev;
        } else {
            next.prev = prev;
        }
        order.prev = null;
        order.next = null;
        order.level = null;
        quantity -= order.leaves;
        orderCount--;
    }
}
