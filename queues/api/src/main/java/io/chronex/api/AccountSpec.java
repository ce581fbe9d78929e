package io.chronex.api;

/** Limits of one account; 0 in a limit means no limit. */
public record AccountSpec(long id, long maxOrderQuantity, long maxOrderNotional, int maxOpenOrders,
                          SelfTradePrevention selfTradePrevention) {
    public AccountSpec {
        if (maxOrderQuantity < 0 || maxOrderNotional < 0 || maxOpenOrders < 0) {
            throw new IllegalArgumentException("account " + id + ": limits cannot be negative");
        }
        if (selfTradePrevention == null) {
            throw new IllegalArgumentException("account " + id + ": self-trade prevention mode missing");
        }
    }

    /** An account with no limits and self-trade prevention off. */
    public static AccountSpec unlimited(final long id) {
        return new AccountSpec(id, 0, 0, 0, SelfTradePrevention.OFF);
    }
}
