package io.chronex.api;

/** One trade between the incoming (taker) order and a resting (maker) order; a reused entry of a {@link Result}. */
public final class Fill {
    /** Engine-wide trade sequence, from 1. */
    public long tradeId;
    /** The resting order's price: every trade happens there. */
    public long price;
    public long quantity;

    public long takerOrderId;
    public long takerAccount;
    public long takerClientOrderId;
    public Side takerSide;
    /** Taker's remaining quantity after this fill. */
    public long takerLeavesQuantity;
    /** Taker's cumulative filled quantity after this fill. */
    public long takerCumulativeQuantity;

    public long makerOrderId;
    public long makerAccount;
    public long makerClientOrderId;
    public long makerLeavesQuantity;
    public long makerCumulativeQuantity;

    void appendTo(final StringBuilder sb) {
        sb.append("fill#").append(tradeId).append(' ').append(quantity).append('@').append(price)
            .append(" taker=").append(takerOrderId).append('/').append(takerAccount).append('/').append(takerClientOrderId)
            .append(' ').append(takerSide).append(" leaves=").append(takerLeavesQuantity).append(" cum=").append(takerCumulativeQuantity)
            .append(" maker=").append(makerOrderId).append('/').append(makerAccount).append('/').append(makerClientOrderId)
            .append(" leaves=").append(makerLeavesQuantity).append(" cum=").append(makerCumulativeQuantity);
    }
}
