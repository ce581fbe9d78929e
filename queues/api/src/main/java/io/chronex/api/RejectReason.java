package io.chronex.api;

/** Why a command was rejected; a rejected command changes nothing. */
public enum RejectReason {
    NONE,
    /** The symbol is not configured (or symbol 0 where one is required). */
    UNKNOWN_SYMBOL,
    /** The account is not configured and accounts are not created on first use. */
    UNKNOWN_ACCOUNT,
    /** No live order of this account with that id (another account's order counts as unknown). */
    UNKNOWN_ORDER,
    /** The account already has a live order with this client order id. */
    DUPLICATE_CLIENT_ORDER_ID,
    /** Quantity not in 1..MAX_QUANTITY. */
    INVALID_QUANTITY,
    /** Price (or budget) not in 1..MAX_PRICE. */
    INVALID_PRICE,
    /** A combination that makes no sense: missing side/type/time in force, post-only with IOC/FOK or MARKET, MARKET with FOK_BUDGET. */
    INVALID_ORDER,
    /** The symbol is halted. */
    SYMBOL_HALTED,
    /** The account's kill switch is on. */
    KILL_SWITCH_ACTIVE,
    /** Price is not a multiple of the symbol's tick size. */
    PRICE_NOT_ON_TICK,
    /** Quantity is not a multiple of the symbol's lot size. */
    QUANTITY_NOT_ON_LOT,
    /** Limit price further from the reference price than the symbol's band allows. */
    PRICE_OUTSIDE_BAND,
    /** Quantity above the account's maximum order quantity. */
    MAX_ORDER_QUANTITY_EXCEEDED,
    /** price x quantity above the account's maximum order notional. */
    MAX_ORDER_NOTIONAL_EXCEEDED,
    /** The account already has its maximum number of open orders. */
    MAX_OPEN_ORDERS_EXCEEDED,
    /** A post-only order would have taken liquidity. */
    POST_ONLY_WOULD_TAKE,
    /** A replace to a total quantity not above what has already filled. */
    QUANTITY_NOT_ABOVE_FILLED,
    /** The command type is missing or unknown. */
    UNKNOWN_COMMAND,
    /**
     * The journal entry could not be decoded (unknown message type or version, truncated, a field
     * out of range). Written by the engine process; the core never produces it. Constants are
     * only ever appended: journals store ordinals.
     */
    MALFORMED_COMMAND,
    /** The account's available balance does not cover what the order must hold, or a withdrawal. */
    INSUFFICIENT_FUNDS,
    /** DEPOSIT, WITHDRAW, ADJUST: the asset is not configured. */
    UNKNOWN_ASSET,
    /** DEPOSIT, WITHDRAW, ADJUST: the reference id is not positive. */
    INVALID_REFERENCE,
    /** DEPOSIT, WITHDRAW, ADJUST: a command with this reference id was already applied. */
    DUPLICATE_REFERENCE,
    /** DEPOSIT, WITHDRAW: amount not positive; ADJUST: amount zero. */
    INVALID_AMOUNT,
    /** A bid's reserve price below its limit price, or on a budget order. */
    INVALID_RESERVE_PRICE,
    /**
     * CONFIGURATION: a record the engine does not take (a second initial one, a change before any, a change it cannot
     * make under a running book, or text that does not read as a configuration). Written by the engine process.
     */
    INVALID_CONFIGURATION;

    private static final RejectReason[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static RejectReason fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
