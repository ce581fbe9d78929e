package io.chronex.engine.risk;

import io.chronex.api.AssetSpec;
import io.chronex.api.CommandType;
import io.chronex.api.RejectReason;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The exchange's money: the assets, what came in and went out of each, the fees collected, the
 * references of applied money commands, and the moves between wallets that holds and trades make.
 * Every move keeps, per asset, the sum over wallets of available + held, plus fees, equal to
 * deposited - withdrawn + adjusted ({@link #conserved}).
 */
public final class Ledger {
    private static final int NO_ASSET = -1;

    private final AssetSpec[] assets;
    private final Int2IntHashMap indexById = new Int2IntHashMap(NO_ASSET);
    private final long[] deposited;
    private final long[] withdrawn;
    private final long[] adjusted;
    private final long[] fees;
    /** What open orders hold of each asset over all wallets: kept with every move, so reading it costs no walk over accounts. */
    private final long[] held;
    /** References of applied DEPOSIT, WITHDRAW and ADJUST commands: each applies once. */
    private final LongHashSet references = new LongHashSet();

    public Ledger(final List<AssetSpec> assetSpecs) {
        assets = assetSpecs.toArray(new AssetSpec[0]);
        Arrays.sort(assets, Comparator.comparingInt(AssetSpec::id));
        for (int i = 0; i < assets.length; i++) {
            indexById.put(assets[i].id(), i);
        }
        deposited = new long[assets.length];
        withdrawn = new long[assets.length];
        adjusted = new long[assets.length];
        fees = new long[assets.length];
        held = new long[assets.length];
    }

    public int assetCount() {
        return assets.length;
    }

    /** The asset at a ledger index (assets are indexed in id order). */
    public AssetSpec asset(final int index) {
        return assets[index];
    }

    /** The ledger index of an asset id, or -1 when it is not configured. */
    public int indexOf(final int assetId) {
        return indexById.get(assetId);
    }

    public Wallet newWallet() {
        return new Wallet(assets.length);
    }

    /** The money terms of a symbol with assets, or null for one without. */
    public Pair pair(final SymbolSpec spec) {
        if (!spec.hasAssets()) {
            return null;
        }
        final int base = indexOf(spec.baseAsset());
        final int quote = indexOf(spec.quoteAsset());
        if (base == NO_ASSET || quote == NO_ASSET) {
            throw new IllegalArgumentException("symbol " + spec.name() + " names an asset that is not configured");
        }
        return new Pair(base, quote, spec.baseScale(), spec.quoteScale(), spec.takerFee(), spec.makerFee());
    }

    // ---------------------------------------------------------------- journalled money

    /**
     * Applies a DEPOSIT, WITHDRAW or ADJUST of amount units of the asset at assetIndex to a wallet, once
     * per reference; returns why not, or NONE. A refused command changes nothing, its reference included.
     */
    public RejectReason apply(final CommandType type, final Wallet wallet, final int assetIndex, final long amount,
                              final long reference) {
        if (reference <= 0) {
            return RejectReason.INVALID_REFERENCE;
        }
        final long available = wallet.available[assetIndex];
        final long after;
        switch (type) {
            case DEPOSIT -> after = amount > 0 ? available + amount : -1;
            case WITHDRAW -> after = amount > 0 ? available - amount : available;
            case ADJUST -> after = amount != 0 ? available + amount : -1;
            default -> throw new IllegalArgumentException(type + " is not a money command");
        }
        // The asset's total is bounded too: every balance, hold and fee is a part of it, so none can overflow, and
        // the conservation sum stays a true long (money into one account only would let it wrap).
        if (amount == 0 || (amount < 0 && type != CommandType.ADJUST)
            || (amount > 0 && type != CommandType.WITHDRAW && (after < 0 || conserved(assetIndex) > Long.MAX_VALUE - amount))) {
            return RejectReason.INVALID_AMOUNT; // zero, negative where it cannot be, or a balance past Long.MAX_VALUE
        }
        if (after < 0) {
            return RejectReason.INSUFFICIENT_FUNDS;
        }
        if (references.contains(reference)) {
            return RejectReason.DUPLICATE_REFERENCE;
        }
        references.add(reference);
        wallet.available[assetIndex] = after;
        switch (type) {
            case DEPOSIT -> deposited[assetIndex] += amount;
            case WITHDRAW -> withdrawn[assetIndex] += amount;
            default -> adjusted[assetIndex] += amount;
        }
        return RejectReason.NONE;
    }

    // ---------------------------------------------------------------- holds and trades

    /** Moves amount of an asset from available to held for an order; false (nothing moved) when available is short. */
    public boolean hold(final Wallet wallet, final int asset, final long amount, final Hold hold) {
        if (amount > wallet.available[asset]) {
            return false;
        }
        wallet.available[asset] -= amount;
        wallet.held[asset] += amount;
        held[asset] += amount;
        hold.amount += amount;
        return true;
    }

    /** Gives back everything an order still holds: it is done. */
    public void releaseAll(final Wallet wallet, final int asset, final Hold hold) {
        release(wallet, asset, hold.amount, hold);
    }

    /** Gives back what an order holds beyond what its remaining quantity needs. */
    public void releaseExcess(final Pair pair, final Wallet wallet, final Side side, final long leaves, final Hold hold) {
        final long excess = hold.amount - pair.required(side, leaves, hold.price);
        if (excess > 0) {
            release(wallet, pair.heldAsset(side), excess, hold);
        }
    }

    private void release(final Wallet wallet, final int asset, final long amount, final Hold hold) {
        wallet.available[asset] += amount;
        wallet.held[asset] -= amount;
        held[asset] -= amount;
        hold.amount -= amount;
    }

    /**
     * Settles one trade of quantity at price: the buyer pays price x quantity x quoteScale plus its fee
     * per unit out of its order's hold and receives quantity x baseScale; the seller gives the base out
     * of its hold and receives the quote less its fee; both fees are collected in the quote asset.
     */
    public void settle(final Pair pair, final long quantity, final long price,
                       final Wallet buyer, final Hold buyerHold, final long buyerFee,
                       final Wallet seller, final Hold sellerHold, final long sellerFee) {
        final int base = pair.base;
        final int quote = pair.quote;
        final long value = quantity * price * pair.quoteScale;
        final long baseAmount = quantity * pair.baseScale;
        final long buyerPays = value + quantity * buyerFee;
        buyer.held[quote] -= buyerPays;
        held[quote] -= buyerPays;
        buyerHold.amount -= buyerPays;
        buyer.available[base] += baseAmount;
        seller.held[base] -= baseAmount;
        held[base] -= baseAmount;
        sellerHold.amount -= baseAmount;
        seller.available[quote] += value - quantity * sellerFee;
        fees[quote] += quantity * (buyerFee + sellerFee);
    }

    // ---------------------------------------------------------------- totals, snapshots

    public long deposited(final int assetIndex) {
        return deposited[assetIndex];
    }

    public long withdrawn(final int assetIndex) {
        return withdrawn[assetIndex];
    }

    /** The sum of ADJUST amounts (signed). */
    public long adjusted(final int assetIndex) {
        return adjusted[assetIndex];
    }

    /** Fees collected in the asset. */
    public long fees(final int assetIndex) {
        return fees[assetIndex];
    }

    /** What every wallet's open orders hold of the asset. */
    public long held(final int assetIndex) {
        return held[assetIndex];
    }

    /** What the wallets and fees of an asset must add up to: deposited - withdrawn + adjusted. */
    public long conserved(final int assetIndex) {
        return deposited[assetIndex] - withdrawn[assetIndex] + adjusted[assetIndex];
    }

    /** The references applied so far, ascending (allocates: snapshots and tools). */
    public long[] references() {
        final long[] sorted = new long[references.size()];
        int i = 0;
        for (final LongHashSet.LongIterator it = references.iterator(); it.hasNext(); ) {
            sorted[i++] = it.nextValue();
        }
        Arrays.sort(sorted);
        return sorted;
    }

    /** Puts back one asset's totals: for snapshot restore only. */
    public void restoreTotals(final int assetIndex, final long depositedAmount, final long withdrawnAmount, final long adjustedAmount,
                              final long feesAmount) {
        deposited[assetIndex] = depositedAmount;
        withdrawn[assetIndex] = withdrawnAmount;
        adjusted[assetIndex] = adjustedAmount;
        fees[assetIndex] = feesAmount;
    }

    /** Puts back one wallet's balances of an asset: for snapshot restore only (the asset's held total follows). */
    public void restoreBalances(final Wallet wallet, final int assetIndex, final long availableAmount, final long heldAmount) {
        held[assetIndex] += heldAmount - wallet.held[assetIndex];
        wallet.restore(assetIndex, availableAmount, heldAmount);
    }

    /** Puts back an applied reference: for snapshot restore only. */
    public void restoreReference(final long reference) {
        references.add(reference);
    }
}
