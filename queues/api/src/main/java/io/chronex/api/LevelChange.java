package io.chronex.api;

/** The state of one price level after a command touched it; quantity 0 means the level is gone. */
public final class LevelChange {
    public int symbol;
    public Side side;
    public long price;
    /** Total resting quantity at the level after the command. */
    public long quantity;
    /** Number of resting orders at the level after the command. */
    public int orderCount;

    void appendTo(final StringBuilder sb) {
        sb.append("level sym=").append(symbol).append(' ').append(side).append(' ').append(price)
            .append(" qty=").append(quantity).append(" orders=").append(orderCount);
    }
}
