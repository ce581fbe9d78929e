package io.chronex.engine;

import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.engine.risk.Hold;

/** A live order: pooled and reused, linked into its price level and its account's order list. */
final class Order {
    long orderId;
    long clientOrderId;
    long price;
    /** cumulative + leaves while live. */
    long quantity;
    long leaves;
    long cumulative;
    Side side;
    TimeInForce timeInForce;
    boolean postOnly;
    Account account;
    /** account.id, kept here so the client-id index compares without another load. */
    long accountId;
    OrderBook book;
    /** What the order holds of its account's money (nothing in a symbol without assets or with FUNDS off). */
    final Hold hold = new Hold();

    /** Null while not resting (during matching of a moved or replaced order). */
    PriceLevel level;
    Order prev;
    Order next;

    /** The account's live orders in engine-id order: mass cancel and kill switch walk this. */
    Order accountPrev;
    Order accountNext;

    void clear() {
        account = null;
        book = null;
        level = null;
        prev = null;
        next = null;
        accountPrev = null;
        accountNext = null;
        side = null;
        timeInForce = null;
        hold.clear();
    }
}
