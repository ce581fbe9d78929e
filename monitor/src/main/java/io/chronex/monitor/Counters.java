package io.chronex.monitor;

import io.chronex.api.Fill;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;

import java.util.NavigableMap;
import java.util.TreeMap;

/** Counts of what the engine answered: accepted, rejects by reason, and trades and volume per symbol. */
public final class Counters {
    /** One symbol's trading. */
    public static final class SymbolTrading {
        public long trades;
        public long volume;
    }

    private final long[] rejects = new long[RejectReason.values().length];
    private final NavigableMap<Integer, SymbolTrading> bySymbol = new TreeMap<>();
    private long accepted;

    public void onResult(final Result r) {
        if (r.isRejected()) {
            rejects[r.rejectReason.ordinal()]++;
        } else {
            accepted++;
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill fill = r.fill(i);
            // A fill has no symbol of its own: it is on the symbol of the order that took.
            final SymbolTrading trading = bySymbol.computeIfAbsent(r.symbol, s -> new SymbolTrading());
            trading.trades++;
            trading.volume += fill.quantity;
        }
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
