package io.chronex.engine;

import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.engine.risk.Pair;

/**
 * Walks of the opposite side of a book that change nothing: whether a fill-or-kill order can fill,
 * and what a market bid would pay. Each skips or stops at the taker's own orders exactly as matching
 * will under the self-trade prevention mode it is given.
 */
final class BookWalks {
    private BookWalks() {
    }

    /** FOK: would matching now fill the whole order? Walks the book without changing it. */
    static boolean canFillCompletely(final OrderBook book, final Order taker, final boolean limited, final long limit,
                                     final SelfTradePrevention stp) {
        final BookSide opposite = book.side(taker.side.opposite());
        final boolean buy = taker.side == Side.BUY;
        long available = 0;
        for (PriceLevel level = opposite.best(); level != null; level = opposite.worseThan(level)) {
            if (limited && (buy ? level.price > limit : level.price < limit)) {
                return false;
            }
            if (stp == SelfTradePrevention.OFF) {
                available += level.quantity;
                if (available >= taker.leaves) {
                    return true;
                }
                continue;
            }
            for (Order maker = level.head; maker != null; maker = maker.next) {
                if (maker.account == taker.account) {
                    if (stp == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    return false;
                }
                available += maker.leaves;
                if (available >= taker.leaves) {
                    return true;
                }
            }
        }
        return false;
    }

    /** FOK_BUDGET: is the whole quantity there, and does its total cost respect the budget? */
    static boolean fitsBudget(final OrderBook book, final Order taker, final long budget, final SelfTradePrevention stp) {
        final BookSide opposite = book.side(taker.side.opposite());
        long needed = taker.leaves;
        long cost = 0;
        walk:
        for (PriceLevel level = opposite.best(); level != null && needed > 0; level = opposite.worseThan(level)) {
            if (stp == SelfTradePrevention.OFF) {
                final long taken = Math.min(needed, level.quantity);
                cost = Pair.add(cost, Pair.multiply(taken, level.price));
                needed -= taken;
                continue;
            }
            for (Order maker = level.head; maker != null && needed > 0; maker = maker.next) {
                if (maker.account == taker.account) {
                    if (stp == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    break walk;
                }
                final long taken = Math.min(needed, maker.leaves);
                cost = Pair.add(cost, Pair.multiply(taken, level.price));
                needed -= taken;
            }
        }
        return needed == 0 && (taker.side == Side.BUY ? cost <= budget : cost >= budget);
    }

    /**
     * A market bid holds what taking the asks as they stand would cost it, fees included: the walk
     * {@link MatchingEngine}'s matching will make, makers self-trade prevention cancels skipped, up to the quantity.
     */
    static long marketBuyCost(final OrderBook book, final Pair pair, final Account account, final long quantity,
                              final SelfTradePrevention stp) {
        long needed = quantity;
        long cost = 0;
        walk:
        for (PriceLevel level = book.asks.best(); level != null && needed > 0; level = book.asks.worseThan(level)) {
            for (Order maker = level.head; maker != null && needed > 0; maker = maker.next) {
                if (stp != SelfTradePrevention.OFF && maker.account == account) {
                    if (stp == SelfTradePrevention.CANCEL_RESTING) {
                        continue;
                    }
                    break walk;
                }
                final long taken = Math.min(needed, maker.leaves);
                cost = Pair.add(cost, pair.bidHold(taken, level.price));
                needed -= taken;
            }
        }
        return cost;
    }
}
