package io.chronex.api;

/** Side of an order. */
public enum Side {
    BUY,
    SELL;

    private static final Side[] VALUES = values();

    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static Side fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
