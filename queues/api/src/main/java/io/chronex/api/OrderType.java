package io.chronex.api;

/** Price condition of an order. */
public enum OrderType {
    /** Trades at the limit price or better; may rest. */
    LIMIT,
    /** Trades at any price; never rests (its remainder is cancelled whatever the time in force). */
    MARKET;

    private static final OrderType[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static OrderType fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
