package io.chronex.api;

import java.math.BigDecimal;

/**
 * Static settings of one tradable symbol. Prices are in units of 1/priceScale; quantities in base units.
 * When it names a base and a quote asset (ids, 0 = none), orders are paid for from accounts' balances:
 * a quantity q is q x baseScale units of the base asset, a price p paid for q is p x q x quoteScale units
 * of the quote asset, and the taker and maker fees are units of the quote asset per unit of quantity
 * (exchange-core's baseScaleK, quoteScaleK, takerFee and makerFee; docs/engine.md, "Accounts").
 */
public record SymbolSpec(int id, String name, long priceScale, long tickSize, long lotSize,
                         long priceBandBasisPoints, long referencePrice,
                         int baseAsset, int quoteAsset, long baseScale, long quoteScale, long takerFee, long makerFee) {
    /** A symbol without assets: trading moves no money. */
    public SymbolSpec(final int id, final String name, final long priceScale, final long tickSize, final long lotSize,
                      final long priceBandBasisPoints, final long referencePrice) {
        this(id, name, priceScale, tickSize, lotSize, priceBandBasisPoints, referencePrice, 0, 0, 1, 1, 0, 0);
    }

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
        if ((baseAsset == 0) != (quoteAsset == 0) || baseAsset < 0 || quoteAsset < 0 || (baseAsset != 0 && baseAsset == quoteAsset)) {
            throw new IllegalArgumentException("symbol " + id + ": name both a base and a quote asset, two different ones, or neither");
        }
        if (baseScale <= 0 || quoteScale <= 0 || baseScale > MAX_SCALE || quoteScale > MAX_SCALE) {
            throw new IllegalArgumentException("symbol " + id + ": baseScale and quoteScale must be 1.." + MAX_SCALE);
        }
        if (makerFee < 0 || takerFee < makerFee || takerFee > MAX_SCALE) {
            throw new IllegalArgumentException("symbol " + id + ": fees must satisfy 0 <= makerFee <= takerFee <= " + MAX_SCALE);
        }
    }

    /** Largest base or quote scale and fee: keeps a hold of MAX_QUANTITY at MAX_PRICE computable (it saturates, never wraps). */
    public static final long MAX_SCALE = 1_000_000_000L;

    /** Does trading this symbol move money between accounts? */
    public boolean hasAssets() {
        return baseAsset != 0;
    }

    /** The same symbol paid for in these assets, with these scales and fees. */
    public SymbolSpec withAssets(final int base, final int quote, final long baseScaleK, final long quoteScaleK,
                                 final long taker, final long maker) {
        return new SymbolSpec(id, name, priceScale, tickSize, lotSize, priceBandBasisPoints, referencePrice,
            base, quote, baseScaleK, quoteScaleK, taker, maker);
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
