package io.chronex.api;

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

    /** A symbol with tick 1, lot 1, no band: what the exchange-core workload needs. */
    public static SymbolSpec plain(final int id) {
        return new SymbolSpec(id, "S" + id, 1, 1, 1, 0, 0);
    }
}
