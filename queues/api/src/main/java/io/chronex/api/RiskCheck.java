package io.chronex.api;

/** A pre-trade check that can be switched off as a whole (the exchange-core replay runs with none). */
public enum RiskCheck {
    /** Price a multiple of the tick size, quantity a multiple of the lot size. */
    TICK_AND_LOT,
    /** Limit price within the symbol's band around its reference price. */
    PRICE_BAND,
    /** Account's maximum order quantity. */
    MAX_ORDER_QUANTITY,
    /** Account's maximum order notional (price x quantity). */
    MAX_ORDER_NOTIONAL,
    /** Account's maximum number of resting orders. */
    MAX_OPEN_ORDERS,
    /** Account's self-trade prevention mode; off means every account trades with itself. */
    SELF_TRADE_PREVENTION,
    /** Account kill switches block orders. */
    KILL_SWITCH,
    /** Symbol halts block orders. */
    HALT,
    /**
     * Orders in symbols with assets are paid for: held from the account's balance when accepted, settled
     * by every trade, released when done. Off, trading moves no money (deposits and withdrawals still do).
     */
    FUNDS;

    public int bit() {
        return 1 << ordinal();
    }

    /** Bits of every check. */
    public static int all() {
        return (1 << values().length) - 1;
    }

    /** The checks whose bits are set, as a configuration file says them: "all", "none" or a list of names. */
    public static String names(final int bits) {
        if (bits == all()) {
            return "all";
        }
        if (bits == 0) {
            return "none";
        }
        final java.util.StringJoiner out = new java.util.StringJoiner(", ", "[", "]");
        for (final RiskCheck check : values()) {
            if ((bits & check.bit()) != 0) {
                out.add(check.name());
            }
        }
        return out.toString();
    }
}
