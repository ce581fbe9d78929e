package io.chronex.api;

import java.math.BigDecimal;

/** Static settings of one tradable symbol. Prices are in units of 1/priceScale; quantities in base units. */
public record SymbolSpec(int id, String name, long priceScale, long tickSize, long lotSize,
                         long priceBandBasisPoints, long referencePrice) {
    public SymbolSpec {
        if (id == Command.ALL_SYMBOLS) {
            throw new IllegalArgumentException("symbol id 0 is reserved for 'all symbols'");
        }
        if (priceScale <= 0 || tickSize <= 0 || lotSize <= 0) {
            throw new IllegalArgumentException("symbol " + id + ": priceScale, tickSize and lotSize must be positive");
        }
        if (priceBandBasisPoints < 0 || referencePrice < 0) {
            throw new IllegalArgumentException("symbol " + id + ": price band and reference price cannot be negative");
        }
    }

    /**
     * The decimal places of the price scale when it is a power of ten (100: 2, 1: 0), else -1: a
     * price in ticks can then be shown in the symbol's units exactly, as FIX and people write it.
     */
    public int priceDecimals() {
        int decimals = 0;
        long s = priceScale;
        while (s > 1 && s % 10 == 0) {
            s /= 10;
            decimals++;
        }
        return s == 1 ? decimals : -1;
    }

    /** A price in ticks in the symbol's units ("100.02") when {@link #priceDecimals} allows, else the ticks as they are. */
    public String formatPrice(final long ticks) {
        final int decimals = priceDecimals();
        return decimals < 0 ? Long.toString(ticks) : BigDecimal.valueOf(ticks, decimals).toPlainString();
    }

    /** A symbol with tick 1, lot 1, no band: what the exchange-core workload needs. */
    public static SymbolSpec plain(final int id) {
        return new SymbolSpec(id, "S" + id, 1, 1, 1, 0, 0);
    }
}
