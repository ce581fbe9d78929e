package io.chronex.monitor;

import io.chronex.api.Fill;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Counts of what the engine answered: accepted, rejects by reason, and per symbol trades, volume,
 * notional and the last trades.
 */
public final class Counters {
    /** Trades kept per symbol, newest first in {@link SymbolTrading#lastTrades()}. */
    public static final int LAST_TRADES = 5;

    /** One trade: price in ticks, quantity in lots, the events index of the result that carried it. */
    public record Trade(long price, long quantity, long eventsIndex) {
    }

    /** One symbol's trading. */
    public static final class SymbolTrading {
        public long trades;
        public long volume;
        /**
         * Sum of price × quantity (ticks × lots), as a 128-bit two's complement number in two longs:
         * a price up to {@code Command.MAX_PRICE} (10^18) times a quantity up to 10^12 overflows a long
         * at the first trade, and a day's sum can overflow even with ordinary figures. 2^127 ticks × lots
         * is never reached. Exact integer arithmetic only; {@link #notional()} turns it into a BigInteger for display.
         */
        private long notionalHigh;
        private long notionalLow;
        private final long[] tradePrice = new long[LAST_TRADES];
        private final long[] tradeQuantity = new long[LAST_TRADES];
        private final long[] tradeIndex = new long[LAST_TRADES];

        void onTrade(final long price, final long quantity, final long eventsIndex) {
            final int at = (int) (trades % LAST_TRADES);
            tradePrice[at] = price;
            tradeQuantity[at] = quantity;
            tradeIndex[at] = eventsIndex;
            trades++;
            volume += quantity;
            final long low = price * quantity;
            final long high = Math.multiplyHigh(price, quantity);
            final long sumLow = notionalLow + low;
            final long carry = Long.compareUnsigned(sumLow, notionalLow) < 0 ? 1 : 0;
            notionalHigh += high + carry;
            notionalLow = sumLow;
        }

        /** Sum of price × quantity of every trade, in ticks × lots. */
        public BigInteger notional() {
            final BigInteger low = new BigInteger(Long.toUnsignedString(notionalLow));
            return BigInteger.valueOf(notionalHigh).shiftLeft(64).add(low);
        }

        /** Up to {@link #LAST_TRADES} last trades, newest first. */
        public List<Trade> lastTrades() {
            final int n = (int) Math.min(trades, LAST_TRADES);
            final List<Trade> out = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                final int at = (int) ((trades - i) % LAST_TRADES);
                out.add(new Trade(tradePrice[at], tradeQuantity[at], tradeIndex[at]));
            }
            return out;
        }

        /** The last trade, or null before the first. */
        public Trade lastTrade() {
            return trades == 0 ? null : lastTrades().get(0);
        }
    }

    private final long[] rejects = new long[RejectReason.values().length];
    private final NavigableMap<Integer, SymbolTrading> bySymbol = new TreeMap<>();
    private long accepted;
    private int lastSymbol;
    private SymbolTrading lastTrading;

    /** A result whose events index is not known (-1 in its trades). */
    public void onResult(final Result r) {
        onResult(-1, r);
    }

    /** The result read at {@code eventsIndex}. */
    public void onResult(final long eventsIndex, final Result r) {
        if (r.isRejected()) {
            rejects[r.rejectReason.ordinal()]++;
        } else {
            accepted++;
        }
        if (r.fillCount() == 0) {
            return;
        }
        // A fill has no symbol of its own: it is on the symbol of the order that took.
        final SymbolTrading trading = trading(r.symbol);
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill fill = r.fill(i);
            trading.onTrade(fill.price, fill.quantity, eventsIndex);
        }
    }

    /** The symbol's trading; the last one looked up is kept, so a run of trades in one symbol boxes no key. */
    private SymbolTrading trading(final int symbol) {
        if (lastTrading == null || symbol != lastSymbol) {
            lastTrading = bySymbol.computeIfAbsent(symbol, s -> new SymbolTrading());
            lastSymbol = symbol;
        }
        return lastTrading;
    }

    public long accepted() {
        return accepted;
    }

    public long rejects(final RejectReason reason) {
        return rejects[reason.ordinal()];
    }

    public long rejectsTotal() {
        long total = 0;
        for (final long n : rejects) {
            total += n;
        }
        return total;
    }

    /** Symbols that traded, in id order. */
    public NavigableMap<Integer, SymbolTrading> trading() {
        return bySymbol;
    }
}
