package io.chronex.api;

/** State of the order a command was about, after the command. */
public enum OrderStatus {
    /** Resting, nothing filled. */
    NEW,
    /** Resting, something filled. */
    PARTIALLY_FILLED,
    /** Fully filled, gone from the book. */
    FILLED,
    /**
     * Gone from the book without filling completely (cancel, reduce to zero, IOC/FOK remainder, self-trade prevention, kill switch, mass
     * cancel).
     */
    CANCELLED,
    /** A DAY order expired by END_OF_DAY. */
    EXPIRED,
    /** The command was rejected; the order (if any) is as it was. */
    REJECTED,
    /** The command was not about one order (mass cancel, admin commands). */
    NONE;

    private static final OrderStatus[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static OrderStatus fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
