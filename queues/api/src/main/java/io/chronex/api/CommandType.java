package io.chronex.api;

/** Every kind of input that can change the engine's state. */
public enum CommandType {
    /** A new order: account, symbol, clientOrderId, side, orderType, timeInForce, postOnly, price, quantity. */
    NEW_ORDER,
    /** Cancel one order, found by orderId or else (account, clientOrderId). */
    CANCEL,
    /**
     * Cancel/replace: new price and new total quantity (FIX OrderQty semantics: includes what has
     * already filled); newClientOrderId renames the order when non-zero.
     */
    REPLACE,
    /** Reduce an order's remaining quantity by quantity, keeping its priority. */
    REDUCE,
    /** exchange-core MOVE: a new price; the order always rejoins at the back of its new level. */
    MOVE,
    /** Cancel all orders of an account, or of an account in one symbol when symbol is non-zero. */
    MASS_CANCEL,
    /** Stop accepting new orders, replaces and moves in a symbol (cancels still work). */
    HALT,
    /** Lift a HALT. */
    RESUME,
    /** Cancel every order of an account and block its new orders, replaces and moves. */
    KILL_SWITCH_ON,
    /** Lift an account's kill switch. */
    KILL_SWITCH_OFF,
    /** Expire DAY orders in a symbol, or in every symbol when symbol is 0. */
    END_OF_DAY,
    /** Set a symbol's reference price (the centre of its price band) to price. */
    SET_REFERENCE_PRICE,
    /** Create an account or change its limits and self-trade prevention mode. */
    SET_ACCOUNT_LIMITS,
    /**
     * Ask the engine process to write a snapshot after this command. Changes nothing in the core,
     * which answers it like any admin command. Constants are only appended: journals store ordinals.
     */
    SNAPSHOT,
    /**
     * Money into an account: account, {@code symbol} the asset id, {@code quantity} the amount (in the
     * asset's units), {@code clientOrderId} the reference id that makes it apply once.
     */
    DEPOSIT,
    /** Money out of an account, refused beyond what is available; fields as DEPOSIT. */
    WITHDRAW,
    /** A correction: as DEPOSIT, the amount signed; refused if available would go negative. */
    ADJUST,
    /**
     * Asks an account's balance of one asset ({@code symbol}); changes nothing, and is answered in journal
     * order, so it sees every command before it. {@code clientOrderId} and {@code quantity} are echoed for the
     * asker (the gateway numbers the reports of one inquiry with them).
     */
    BALANCE,
    /**
     * The exchange's configuration recorded in the journal (a configuration record, not a command excerpt): the one the
     * data directory started under, or a change to it, in force from its journal index on (docs/operating.md). Only the
     * engine process writes and answers it; the core never sees it.
     */
    CONFIGURATION;

    private static final CommandType[] VALUES = values();

    /** Allocation-free lookup by ordinal, for decoders; null when out of range. */
    public static CommandType fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
