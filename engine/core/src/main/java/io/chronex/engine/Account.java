package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.SelfTradePrevention;
import io.chronex.engine.risk.Wallet;

/** A trading account: its limits, switches, its money, and its live orders in engine-id order. */
final class Account {
    final long id;
    final Wallet wallet;
    long maxOrderQuantity;
    long maxOrderNotional;
    int maxOpenOrders;
    SelfTradePrevention selfTradePrevention;
    boolean killSwitch;
    int openOrders;
    Order head;
    Order tail;

    Account(final long id, final AccountSpec limits, final Wallet wallet) {
        this.id = id;
        this.wallet = wallet;
        setLimits(limits.maxOrderQuantity(), limits.maxOrderNotional(), limits.maxOpenOrders(), limits.selfTradePrevention());
    }

    void setLimits(final long maxOrderQuantity, final long maxOrderNotional, final int maxOpenOrders,
                   final SelfTradePrevention selfTradePrevention) {
        this.maxOrderQuantity = maxOrderQuantity;
        this.maxOrderNotional = maxOrderNotional;
        this.maxOpenOrders = maxOpenOrders;
        this.selfTradePrevention = selfTradePrevention;
    }

    /** Appends a newly live order; engine ids only grow, so the list stays in engine-id order. */
    void add(final Order order) {
        order.accountPrev = tail;
        order.accountNext = null;
        if (tail == null) {
            head = order;
        } else {
            tail.accountNext = order;
        }
        tail = order;
        openOrders++;
    }

    void remove(final Order order) {
        final Order prev = order.accountPrev;
        final Order next = order.accountNext;
        if (prev == null) {
            head = next;
        } else {
            prev.accountNext = next;
        }
        if (next == null) {
            tail = prev;
        } else {
            next.accountPrev = prev;
        }
        order.accountPrev = null;
        order.accountNext = null;
        openOrders--;
    }
}
