package io.chronex.engine.risk;

/** What one live order holds of its account's money; reused with the pooled order it belongs to. */
public final class Hold {
    /** Units of the hold's asset (quote for a bid, base for an ask) still held for the order. */
    public long amount;
    /** A bid's price per unit its funds are held at (its limit, or its reserve price); 0 for an ask. */
    public long price;
    /** The hold price was given as a reserve price: it stays when the order moves at or below it. */
    public boolean reserved;

    public void clear() {
        amount = 0;
        price = 0;
        reserved = false;
    }
}
