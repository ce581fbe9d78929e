package io.chronex.api;

/** Quantity that left an order without trading; a reused entry of a {@link Result}. */
public final class Cancel {
    public long orderId;
    public long account;
    public long clientOrderId;
    public int symbol;
    public Side side;
    public long price;
    /** How much was taken off. */
    public long quantity;
    /** What the order still has resting afterwards; 0 means it left the book. */
    public long leavesQuantity;
    /** The order's cumulative filled quantity. */
    public long cumulativeQuantity;
    public CancelReason reason;

    void appendTo(final StringBuilder sb) {
        sb.append("cancel ").append(orderId).append('/').append(account).append('/').append(clientOrderId)
            .append(" sym=").append(symbol).append(' ').append(side).append(' ').append(quantity).append('@').append(price)
            .append(" leaves=").append(leavesQuantity).append(" cum=").append(cumulativeQuantity).append(' ').append(reason);
    }
}
