package io.chronex.api;

import java.math.BigDecimal;

/**
 * One asset accounts hold (a currency, a share): amounts of it are longs in units of 10^-decimals
 * (USD with 2 decimals counts cents). Ids are what the journal carries; codes are for people.
 */
public record AssetSpec(int id, String code, int decimals) {
    /** Largest number of decimals: 10^18 still fits in a long. */
    public static final int MAX_DECIMALS = 18;

    public AssetSpec {
        if (id <= 0) {
            throw new IllegalArgumentException("asset id must be positive, not " + id);
        }
        if (code == null || code.isEmpty()) {
            throw new IllegalArgumentException("asset " + id + ": code missing");
        }
        if (decimals < 0 || decimals > MAX_DECIMALS) {
            throw new IllegalArgumentException("asset " + code + ": decimals must be 0.." + MAX_DECIMALS);
        }
    }

    /** An amount in the asset's units as people write it ("12.50" for 1250 cents). */
    public String format(final long amount) {
        return BigDecimal.valueOf(amount, decimals).toPlainString();
    }

    /** The amount in the asset's smallest units that a decimal text means; an exception when it needs more decimals or overflows. */
    public long parse(final String text) {
        final BigDecimal value;
        try {
            value = new BigDecimal(text.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not an amount of " + code);
        }
        try {
            return value.movePointRight(decimals).longValueExact();
        } catch (final ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of " + code + "'s units (" + decimals
                + " decimals) or is too large");
        }
    }
}
