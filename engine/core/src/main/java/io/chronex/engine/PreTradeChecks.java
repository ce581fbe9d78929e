package io.chronex.engine;

import io.chronex.api.Command;
import io.chronex.api.OrderType;
import io.chronex.api.RejectReason;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.engine.risk.Pair;

import static io.chronex.api.Command.MAX_PRICE;
import static io.chronex.api.Command.MAX_QUANTITY;

/**
 * The checks a new order, a move or a replace must pass before it touches a book, in the order
 * docs/engine.md lists them, each only when its {@link RiskCheck} is on. Funds are checked after
 * these, by {@link Funds}.
 */
final class PreTradeChecks {
    // The switches as plain booleans: read on every order, so not worth an enum lookup each time.
    final boolean tickAndLot;
    final boolean priceBand;
    final boolean maxOrderQuantity;
    final boolean maxOrderNotional;
    final boolean maxOpenOrders;
    final boolean selfTrade;
    final boolean killSwitch;
    final boolean halt;

    PreTradeChecks(final int riskChecks) {
        tickAndLot = on(riskChecks, RiskCheck.TICK_AND_LOT);
        priceBand = on(riskChecks, RiskCheck.PRICE_BAND);
        maxOrderQuantity = on(riskChecks, RiskCheck.MAX_ORDER_QUANTITY);
        maxOrderNotional = on(riskChecks, RiskCheck.MAX_ORDER_NOTIONAL);
        maxOpenOrders = on(riskChecks, RiskCheck.MAX_OPEN_ORDERS);
        selfTrade = on(riskChecks, RiskCheck.SELF_TRADE_PREVENTION);
        killSwitch = on(riskChecks, RiskCheck.KILL_SWITCH);
        halt = on(riskChecks, RiskCheck.HALT);
    }

    private static boolean on(final int riskChecks, final RiskCheck check) {
        return (riskChecks & check.bit()) != 0;
    }

    /** The account's self-trade prevention mode as matching applies it: OFF while the check is off. */
    SelfTradePrevention selfTradeMode(final Account account) {
        return selfTrade ? account.selfTradePrevention : SelfTradePrevention.OFF;
    }

    /**
     * Why a new order is refused, or NONE: first what makes it no valid order at all, then the
     * checks in the order docs/engine.md lists them, each only when switched on; {@code duplicate}:
     * the account already has a live order with the command's client order id.
     */
    RejectReason newOrder(final Command c, final OrderBook book, final Account account, final boolean duplicate) {
        final TimeInForce tif = c.timeInForce;
        final boolean market = c.orderType == OrderType.MARKET;
        final boolean budget = tif == TimeInForce.FOK_BUDGET;
        if (c.side == null || c.orderType == null || tif == null || c.clientOrderId == 0
            || (c.postOnly && (market || tif == TimeInForce.IOC || tif == TimeInForce.FOK || budget))
            || (market && budget)) {
            return RejectReason.INVALID_ORDER;
        }
        final long quantity = c.quantity;
        final long price = c.price;
        if (quantity < 1 || quantity > MAX_QUANTITY) {
            return RejectReason.INVALID_QUANTITY;
        }
        if (!market && (price < 1 || price > MAX_PRICE)) {
            return RejectReason.INVALID_PRICE;
        }
        if (duplicate) {
            return RejectReason.DUPLICATE_CLIENT_ORDER_ID;
        }
        if (halt && book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (killSwitch && account.killSwitch) {
            return RejectReason.KILL_SWITCH_ACTIVE;
        }
        if (tickAndLot && quantity % book.lotSize != 0) {
            return RejectReason.QUANTITY_NOT_ON_LOT;
        }
        if (tickAndLot && !market && !budget && price % book.tickSize != 0) {
            return RejectReason.PRICE_NOT_ON_TICK;
        }
        if (priceBand && !market && !budget && outsideBand(book, price)) {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }
        return limits(c, book, account, market, budget);
    }

    /** The account limits and post-only, after every other check on a new order. */
    private RejectReason limits(final Command c, final OrderBook book, final Account account, final boolean market,
                                            final boolean budget) {
        final long quantity = c.quantity;
        final long price = c.price;
        if (maxOrderQuantity && account.maxOrderQuantity > 0 && quantity > account.maxOrderQuantity) {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (maxOrderNotional && account.maxOrderNotional > 0 && !market
            && (budget ? price : Pair.multiply(price, quantity)) > account.maxOrderNotional) {
            return RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
        }
        if (maxOpenOrders && account.maxOpenOrders > 0 && account.openOrders >= account.maxOpenOrders) {
            return RejectReason.MAX_OPEN_ORDERS_EXCEEDED;
        }
        if (c.postOnly && wouldCross(book, c.side, price)) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        return RejectReason.NONE;
    }

    /**
     * The checks MOVE and REPLACE share, in the documented order, once ids, price and quantity are
     * known to be valid. MOVE keeps its quantity, so it skips the lot, size and fill checks.
     */
    RejectReason amendment(final Order order, final long price, final long quantity, final boolean replace) {
        final OrderBook book = order.book;
        final Account account = order.account;
        if (halt && book.halted) {
            return RejectReason.SYMBOL_HALTED;
        }
        if (killSwitch && account.killSwitch) {
            return RejectReason.KILL_SWITCH_ACTIVE;
        }
        if (replace && tickAndLot && quantity % book.lotSize != 0) {
            return RejectReason.QUANTITY_NOT_ON_LOT;
        }
        if (tickAndLot && price % book.tickSize != 0) {
            return RejectReason.PRICE_NOT_ON_TICK;
        }
        if (priceBand && outsideBand(book, price)) {
            return RejectReason.PRICE_OUTSIDE_BAND;
        }
        if (replace && maxOrderQuantity && account.maxOrderQuantity > 0 && quantity > account.maxOrderQuantity) {
            return RejectReason.MAX_ORDER_QUANTITY_EXCEEDED;
        }
        if (maxOrderNotional && account.maxOrderNotional > 0 && Pair.multiply(price, quantity) > account.maxOrderNotional) {
            return RejectReason.MAX_ORDER_NOTIONAL_EXCEEDED;
        }
        if (replace && quantity <= order.cumulative) {
            return RejectReason.QUANTITY_NOT_ABOVE_FILLED;
        }
        if (order.postOnly && wouldCross(book, order.side, price)) {
            return RejectReason.POST_ONLY_WOULD_TAKE;
        }
        return RejectReason.NONE;
    }

    static boolean wouldCross(final OrderBook book, final Side side, final long price) {
        final PriceLevel best = book.side(side.opposite()).best();
        return best != null && (side == Side.BUY ? price >= best.price : price <= best.price);
    }

    static boolean outsideBand(final OrderBook book, final long price) {
        final long reference = book.referencePrice;
        if (book.priceBandBasisPoints == 0 || reference == 0) {
            return false;
        }
        final long distance = Math.abs(price - reference);
        return Pair.multiply(distance, 10_000) > Pair.multiply(reference, book.priceBandBasisPoints);
    }
}
