package io.chronex.engine.risk;

/** One account's money: per asset (by the ledger's asset index) what it can spend and what its open orders hold. */
public final class Wallet {
    final long[] available;
    final long[] held;

    Wallet(final int assets) {
        available = new long[assets];
        held = new long[assets];
    }

    /** What the account can spend of the asset at this ledger index. */
    public long available(final int assetIndex) {
        return available[assetIndex];
    }

    /** What the account's open orders hold of the asset at this ledger index. */
    public long held(final int assetIndex) {
        return held[assetIndex];
    }

    /** Sets both balances of one asset: for snapshot restore only, through {@link Ledger#restoreBalances}. */
    void restore(final int assetIndex, final long availableAmount, final long heldAmount) {
        available[assetIndex] = availableAmount;
        held[assetIndex] = heldAmount;
    }
}
