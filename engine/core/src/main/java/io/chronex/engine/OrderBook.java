package io.chronex.engine;

import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;

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

    /** @param pricesOnTick every resting price is a multiple of the tick size (the tick check is on) */
    OrderBook(final SymbolSpec spec, final boolean pricesOnTick) {
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

    SymbolSpec spec() {
        return new SymbolSpec(symbol, name, priceScale, tickSize, lotSize, priceBandBasisPoints, referencePrice);
    }
}
