package io.chronex.api;

/** The exchange's money per asset (by asset id, in the asset's smallest units): what an engine's ledger publishes. */
public interface MoneyTotals {
    /** Everything deposited into accounts. */
    long deposited(int assetId);

    /** Everything withdrawn from accounts. */
    long withdrawn(int assetId);

    /** The sum of adjustments, signed. */
    long adjusted(int assetId);

    /** Trading fees collected. */
    long feesCollected(int assetId);

    /** What open orders hold, over all accounts. */
    long heldTotal(int assetId);
}
