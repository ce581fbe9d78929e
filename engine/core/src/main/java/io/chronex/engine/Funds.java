package io.chronex.engine;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.engine.risk.Ledger;
import io.chronex.engine.risk.Pair;
import io.chronex.engine.risk.Wallet;

/**
 * Where matching meets money: what a new or amended order must hold, the holds themselves, each trade's
 * settlement and the releases, all through the risk package's {@link Ledger} at the points docs/engine.md
 * ("Accounts") names. Called only for symbols whose book has money terms ({@link OrderBook#funded}).
 */
final class Funds {
    final Ledger ledger;
    /** What the new order in hand will hold, and at what price, once {@link #check} passed it. */
    private long pendingHold;
    private long pendingHoldPrice;
    /** After a refusal for funds: what was needed and what the account had; after a money command, its balance. */
    long needed;
    long available;
    long held;

    Funds(final Ledger ledger) {
        this.ledger = ledger;
    }

    /**
     * Can the account pay for the new order? Works out what it must hold (exchange-core's EXCHANGE rules) and
     * keeps it for {@link #holdNew}; else the reason, with {@link #needed} and {@link #available} for INSUFFICIENT_FUNDS.
     */
    RejectReason check(final Command c, final OrderBook book, final Pair pair, final Account account, final SelfTradePrevention stp) {
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = c.timeInForce == TimeInForce.FOK_BUDGET;
        long holdPrice = 0;
        final long amount;
        if (c.side == Side.SELL) {
            // An ask never sells where its proceeds would not pay its fee: no seller ends below zero.
            if (budget ? pair.budgetAskBelowFee(c.price, c.quantity) : !market && pair.askBelowFee(c.price)) {
                return RejectReason.INVALID_PRICE;
            }
            amount = pair.askHold(c.quantity);
        } else if (c.reservePrice != 0 && (market || (budget ? c.reservePrice != c.price : c.reservePrice < c.price))) {
            return RejectReason.INVALID_RESERVE_PRICE;
        } else if (budget) {
            amount = pair.budgetHold(c.quantity, c.price);
        } else if (market) {
            amount = BookWalks.marketBuyCost(book, pair, account, c.quantity, stp);
        } else {
            holdPrice = c.reservePrice != 0 ? c.reservePrice : c.price;
            amount = pair.bidHold(c.quantity, holdPrice);
        }
        final long has = account.wallet.available(pair.heldAsset(c.side));
        // A hold that saturated is past any long: no account can pay it, even one holding Long.MAX_VALUE.
        if (amount == Long.MAX_VALUE || amount > has) {
            needed = amount;
            available = has;
            return RejectReason.INSUFFICIENT_FUNDS;
        }
        pendingHold = amount;
        pendingHoldPrice = holdPrice;
        return RejectReason.NONE;
    }

    /** Holds for an order accepted after {@link #check} what the check worked out. */
    void holdNew(final Order order, final Command c, final Pair pair) {
        order.hold.price = pendingHoldPrice;
        order.hold.reserved = c.reservePrice != 0 && c.side == Side.BUY;
        ledger.hold(order.account.wallet, pair.heldAsset(c.side), pendingHold, order.hold);
    }

    /**
     * MOVE and priority-losing REPLACE: holds what the order will need at its new price and leaves (a bid holds at
     * the new price, or at its reserve price while the new price is not above it); INSUFFICIENT_FUNDS, with
     * {@link #needed} the difference, when the account cannot pay it; INVALID_PRICE for an ask moved below its fee.
     */
    RejectReason rehold(final Order order, final long price, final long leaves) {
        final Pair pair = order.book.funded;
        if (pair == null) {
            return RejectReason.NONE;
        }
        if (order.side == Side.SELL && pair.askBelowFee(price)) {
            return RejectReason.INVALID_PRICE;
        }
        final long holdPrice = order.side == Side.SELL ? 0 : order.hold.reserved && price <= order.hold.price ? order.hold.price : price;
        final long required = pair.required(order.side, leaves, holdPrice);
        final long more = required - order.hold.amount;
        final Wallet wallet = order.account.wallet;
        if (required == Long.MAX_VALUE || (more > 0 && !ledger.hold(wallet, pair.heldAsset(order.side), more, order.hold))) {
            needed = required == Long.MAX_VALUE ? Long.MAX_VALUE : more;
            available = wallet.available(pair.heldAsset(order.side));
            return RejectReason.INSUFFICIENT_FUNDS;
        }
        // Above its reserve price the bid holds at its limit, which is no reserve: a later move down follows it
        // (docs/engine.md: the old hold price stays only "if that was a reserve price").
        order.hold.reserved = order.hold.reserved && holdPrice == order.hold.price;
        order.hold.price = holdPrice;
        return RejectReason.NONE;
    }

    /** Moves the money of one trade; a maker bid then gives back what it held beyond its new leaves. */
    void settle(final Pair pair, final Order taker, final Order maker, final long quantity, final long price) {
        if (taker.side == Side.BUY) {
            ledger.settle(pair, quantity, price, taker.account.wallet, taker.hold, pair.takerFee,
                maker.account.wallet, maker.hold, pair.makerFee);
        } else {
            ledger.settle(pair, quantity, price, maker.account.wallet, maker.hold, pair.makerFee,
                taker.account.wallet, taker.hold, pair.takerFee);
            ledger.releaseExcess(pair, maker.account.wallet, Side.BUY, maker.leaves, maker.hold);
        }
    }

    /** A resting order gives back what it holds beyond what its leaves need. */
    void releaseExcess(final Order order) {
        if (order.book.funded != null) {
            ledger.releaseExcess(order.book.funded, order.account.wallet, order.side, order.leaves, order.hold);
        }
    }

    /** An order that is done gives back whatever it still holds. */
    void releaseAll(final Order order) {
        if (order.hold.amount != 0) {
            ledger.releaseAll(order.account.wallet, order.book.funded.heldAsset(order.side), order.hold);
        }
    }

    /**
     * DEPOSIT, WITHDRAW, ADJUST or BALANCE of the command's asset ({@code symbol}) for a known account: why not, or
     * NONE; leaves the balance after it in {@link #available} and {@link #held} (and {@link #needed} when short).
     */
    RejectReason apply(final Command c, final Wallet wallet) {
        needed = 0;
        available = 0;
        held = 0;
        final int asset = ledger.indexOf(c.symbol);
        if (asset < 0) {
            return RejectReason.UNKNOWN_ASSET;
        }
        final RejectReason reason = c.type == CommandType.BALANCE ? RejectReason.NONE
            : ledger.apply(c.type, wallet, asset, c.quantity, c.clientOrderId);
        // |Long.MIN_VALUE| is not a long: it saturates, as every amount past the range does (abs would give it back negative).
        needed = reason != RejectReason.INSUFFICIENT_FUNDS ? 0 : c.quantity == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(c.quantity);
        available = wallet.available(asset);
        held = wallet.held(asset);
        return reason;
    }
}
