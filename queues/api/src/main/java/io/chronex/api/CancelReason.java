package io.chronex.api;

/** Why quantity left the book without trading. */
public enum CancelReason {
    /** A CANCEL command. */
    CLIENT_CANCEL,
    /** A REDUCE command took quantity off an order. */
    REDUCE,
    /** The part of an IOC, FOK, FOK_BUDGET or MARKET order that did not fill at once. */
    UNFILLED_REMAINDER,
    /** Self-trade prevention removed it. */
    SELF_TRADE_PREVENTION,
    /** A MASS_CANCEL command. */
    MASS_CANCEL,
    /** The account's kill switch was turned on. */
    KILL_SWITCH,
    /** A DAY order expired at END_OF_DAY. */
    END_OF_DAY;

    private static final CancelReason[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static CancelReason fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
