package io.chronex.api;

/** How long an order may live. */
public enum TimeInForce {
    /** Rests until filled or cancelled. */
    GTC,
    /** Rests until filled, cancelled, or expired by an END_OF_DAY command. */
    DAY,
    /** Immediate or cancel: matches what it can now, the remainder is cancelled. */
    IOC,
    /** Fill or kill: fills its whole quantity now or nothing. */
    FOK,
    /**
     * Fill or kill on a total-cost budget (exchange-core's FOK_BUDGET): the command's price is the
     * budget; the whole quantity fills, at any price, only if the sum of price x quantity over the
     * fills is at most the budget for a buy, at least the budget for a sell.
     */
    FOK_BUDGET;

    private static final TimeInForce[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static TimeInForce fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
