package io.chronex.engine.risk;

import io.chronex.api.Side;

/**
 * One symbol's money terms: its base and quote assets (ledger indexes), how many units of each a
 * quantity and a price stand for, and its fees; and the hold arithmetic of exchange-core's EXCHANGE
 * mode. Every product saturates at Long.MAX_VALUE, which no balance can cover, instead of wrapping.
 */
public final class Pair {
    public final int base;
    public final int quote;
    public final long baseScale;
    public final long quoteScale;
    public final long takerFee;
    public final long makerFee;

    Pair(final int base, final int quote, final long baseScale, final long quoteScale, final long takerFee, final long makerFee) {
        this.base = base;
        this.quote = quote;
        this.baseScale = baseScale;
        this.quoteScale = quoteScale;
        this.takerFee = takerFee;
        this.makerFee = makerFee;
    }

    /** The asset an order on this side holds: quote for a bid, base for an ask. */
    public int heldAsset(final Side side) {
        return side == Side.BUY ? quote : base;
    }

    /** A bid of quantity held at holdPrice: quantity x (holdPrice x quoteScale + takerFee), the most it can pay. */
    public long bidHold(final long quantity, final long holdPrice) {
        return multiply(quantity, add(multiply(holdPrice, quoteScale), takerFee));
    }

    /** An ask of quantity: quantity x baseScale of the base asset. */
    public long askHold(final long quantity) {
        return multiply(quantity, baseScale);
    }

    /** A FOK_BUDGET bid: budget x quoteScale + quantity x takerFee. */
    public long budgetHold(final long quantity, final long budget) {
        return add(multiply(budget, quoteScale), multiply(quantity, takerFee));
    }

    /** What a resting order with these leaves must hold. */
    public long required(final Side side, final long leaves, final long holdPrice) {
        return side == Side.BUY ? bidHold(leaves, holdPrice) : askHold(leaves);
    }

    /** An ask whose proceeds at price could not pay the taker fee (exchange-core refuses these too). */
    public boolean askBelowFee(final long price) {
        return multiply(price, quoteScale) < takerFee;
    }

    /** A FOK_BUDGET ask whose budget could not pay the taker fee on its whole quantity. */
    public boolean budgetAskBelowFee(final long budget, final long quantity) {
        return multiply(budget, quoteScale) < multiply(quantity, takerFee);
    }

    /** The lowest price whose proceeds pay the taker fee: where a market ask stops. */
    public long lowestAskPrice() {
        return Math.max(1, (takerFee + quoteScale - 1) / quoteScale);
    }

    /** a x b for non-negative operands, Long.MAX_VALUE if it would overflow. */
    public static long multiply(final long a, final long b) {
        final long high = Math.multiplyHigh(a, b);
        final long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    /** a + b for non-negative operands, Long.MAX_VALUE if it would overflow. */
    public static long add(final long a, final long b) {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
