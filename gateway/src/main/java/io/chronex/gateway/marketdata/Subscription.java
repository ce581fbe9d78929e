package io.chronex.gateway.marketdata;

import io.chronex.queues.book.Books;

/**
 * One live subscription (SubscriptionRequestType 1) of one session to one symbol: what it asked for, and for a depth-N
 * one the top N levels its client holds (what the last W or X left it with), which the next event is diffed against.
 */
final class Subscription {
    final int session;
    final byte[] mdReqId;
    final MarketDataService.SymbolState symbol;
    /** 0: every level; N: the best N of each side. */
    final int depth;
    final boolean bids;
    final boolean offers;
    final boolean trades;
    /** No X is built while stale (its session is too far behind); a fresh W ends it (the slow-subscriber policy). */
    boolean stale;

    /** Depth N only: the client's top N per side, best first (index 0 bids, 1 offers). */
    final long[][] prices;
    final long[][] quantities;
    final int[][] orders;
    final int[] sizes = new int[2];

    Subscription(final int session, final byte[] mdReqId, final MarketDataService.SymbolState symbol, final int depth,
                 final boolean bids, final boolean offers, final boolean trades) {
        this.session = session;
        this.mdReqId = mdReqId;
        this.symbol = symbol;
        this.depth = depth;
        this.bids = bids;
        this.offers = offers;
        this.trades = trades;
        // Full depth (0) holds nothing: its X come from the level changes themselves.
        prices = new long[][] {new long[depth], new long[depth]};
        quantities = new long[][] {new long[depth], new long[depth]};
        orders = new int[][] {new int[depth], new int[depth]};
    }

    boolean wants(final int side) {
        return side == 0 ? bids : offers;
    }

    boolean sameId(final byte[] id) {
        return java.util.Arrays.equals(mdReqId, id);
    }

    /** Depth N: remembers the book's top N of the side as what the client now holds. */
    void remember(final int side, final Books.Levels levels) {
        final int n = Math.min(depth, levels.size());
        for (int r = 0; r < n; r++) {
            prices[side][r] = levels.price(r);
            quantities[side][r] = levels.quantity(r);
            orders[side][r] = levels.orders(r);
        }
        sizes[side] = n;
    }
}
