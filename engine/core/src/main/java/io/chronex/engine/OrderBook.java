package io.chronex.engine;

import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.risk.Pair;

/** One symbol: its settings, its mutable trading state and its two sides. */
final class OrderBook {
    final int symbol;
    final String name;
    final long priceScale;
    final long tickSize;
    final long lotSize;
    final long priceBandBasisPoints;
    /** Centre of the price band: set by SET_REFERENCE_PRICE and by every trade. */
    long referencePrice;
    boolean halted;
    final BookSide bids;
    final BookSide asks;
    /** The symbol as configured (its reference price as at start). */
    private final SymbolSpec spec;
    /** The money terms orders in this symbol are paid by; null when it has no assets or the FUNDS check is off. */
    final Pair funded;

    /**
     * @param pricesOnTick every resting price is a multiple of the tick size (the tick check is on)
     * @param funded       the money terms orders are paid by, or null
     */
    OrderBook(final SymbolSpec spec, final boolean pricesOnTick, final Pair funded) {
        this.spec = spec;
        this.funded = funded;
        this.symbol = spec.id();
        this.name = spec.name();
        this.priceScale = spec.priceScale();
        this.tickSize = spec.tickSize();
        this.lotSize = spec.lotSize();
        this.priceBandBasisPoints = spec.priceBandBasisPoints();
        this.referencePrice = spec.referencePrice();
        final long priceUnit = pricesOnTick ? tickSize : 1;
        this.bids = new BookSide(Side.BUY, priceUnit);
        this.asks = new BookSide(Side.SELL, priceUnit);
    }

    BookSide side(final Side side) {
        return side == Side.BUY ? bids : asks;
    }

    /** The symbol's settings with the reference price it has now. */
    SymbolSpec spec() {
        return new SymbolSpec(symbol, name, priceScale, tickSize, lotSize, priceBandBasisPoints, referencePrice,
            spec.baseAsset(), spec.quoteAsset(), spec.baseScale(), spec.quoteScale(), spec.takerFee(), spec.makerFee());
    }
}
