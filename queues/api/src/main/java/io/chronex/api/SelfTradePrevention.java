package io.chronex.api;

/** What happens when an account's incoming order would trade with one of its own resting orders. */
public enum SelfTradePrevention {
    /** Trade with itself like with anyone else. */
    OFF,
    /** Cancel the resting order and keep matching. */
    CANCEL_RESTING,
    /** Stop matching and cancel the incoming order's remainder. */
    CANCEL_INCOMING,
    /** Cancel the resting order, then stop matching and cancel the incoming remainder. */
    CANCEL_BOTH;

    private static final SelfTradePrevention[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static SelfTradePrevention fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
