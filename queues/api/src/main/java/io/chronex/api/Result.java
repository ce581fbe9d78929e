package io.chronex.api;

import java.util.Arrays;

/**
 * Everything one command did, reused from command to command: the outcome, the state of the order it
 * was about, every fill, every cancelled quantity, and every price level it touched. Lists grow on
 * demand and keep their entries, so in steady state filling a result allocates nothing.
 */
public final class Result {
    public CommandType commandType;
    public RejectReason rejectReason = RejectReason.NONE;

    /** The order the command was about (after the command); for a rejected command, the ids as given. */
    public long orderId;
    public long account;
    public long clientOrderId;
    public int symbol;
    public Side side;
    public OrderType orderType;
    public TimeInForce timeInForce;
    public long price;
    /**
     * Total order quantity (FIX OrderQty): cumulativeQuantity + leavesQuantity while the order rests; REDUCE lowers it, a cancel does not.
     */
    public long quantity;
    public long leavesQuantity;
    public long cumulativeQuantity;
    public OrderStatus orderStatus = OrderStatus.NONE;
    /** MASS_CANCEL, KILL_SWITCH_ON, END_OF_DAY: how many orders were cancelled or expired. */
    public int affectedOrders;
    /**
     * DEPOSIT, WITHDRAW, ADJUST: the account's available balance of the asset after the command;
     * INSUFFICIENT_FUNDS: what was available of the asset the command needed.
     */
    public long balanceAvailable;
    /** DEPOSIT, WITHDRAW, ADJUST: the account's held balance of the asset after the command. */
    public long balanceHeld;
    /** INSUFFICIENT_FUNDS: the amount the command needed (the asset is the symbol's quote asset for a bid, base for an ask). */
    public long fundsNeeded;

    private Fill[] fills = new Fill[8];
    private int fillCount;
    private Cancel[] cancels = new Cancel[8];
    private int cancelCount;
    private LevelChange[] levelChanges = new LevelChange[8];
    private int levelChangeCount;

    public Result() {
        for (int i = 0; i < 8; i++) {
            fills[i] = new Fill();
            cancels[i] = new Cancel();
            levelChanges[i] = new LevelChange();
        }
    }

    public boolean isRejected() {
        return rejectReason != RejectReason.NONE;
    }

    /** Resets every field and empties the lists (entries are kept for reuse). */
    public void reset(final CommandType commandType) {
        begin(commandType);
        orderId = 0;
        account = 0;
        clientOrderId = 0;
        symbol = 0;
        side = null;
        orderType = null;
        timeInForce = null;
        price = 0;
        quantity = 0;
        leavesQuantity = 0;
        cumulativeQuantity = 0;
        orderStatus = OrderStatus.NONE;
    }

    /**
     * The answer to a command that did not decode: rejected as malformed, nothing else set. The
     * engine process answers so (the journal position is then not retried for ever) and an audit
     * re-execution expects exactly this.
     */
    public void rejectMalformed() {
        reset(null);
        rejectReason = RejectReason.MALFORMED_COMMAND;
        orderStatus = OrderStatus.REJECTED;
    }

    /**
     * The answer to a configuration record in the journal: taken (in force from its index on) or rejected as one the
     * engine does not take; nothing else set. The engine process answers so and an audit re-execution expects exactly this.
     */
    public void answerConfiguration(final boolean taken) {
        reset(CommandType.CONFIGURATION);
        if (!taken) {
            rejectReason = RejectReason.INVALID_CONFIGURATION;
            orderStatus = OrderStatus.REJECTED;
        }
    }

    /**
     * Starts a result for a producer that then sets every subject field itself, as the engine does
     * on every path: resets only the command type, reject reason, affected count and the lists,
     * which saves a dozen stores per command over {@link #reset}.
     */
    public void begin(final CommandType commandType) {
        this.commandType = commandType;
        rejectReason = RejectReason.NONE;
        affectedOrders = 0;
        balanceAvailable = 0;
        balanceHeld = 0;
        fundsNeeded = 0;
        fillCount = 0;
        cancelCount = 0;
        levelChangeCount = 0;
    }

    public int fillCount() {
        return fillCount;
    }

    public Fill fill(final int index) {
        return fills[index];
    }

    public int cancelCount() {
        return cancelCount;
    }

    public Cancel cancel(final int index) {
        return cancels[index];
    }

    public int levelChangeCount() {
        return levelChangeCount;
    }

    public LevelChange levelChange(final int index) {
        return levelChanges[index];
    }

    /** Appends an entry for the caller to fill in. */
    public Fill addFill() {
        if (fillCount == fills.length) {
            fills = Arrays.copyOf(fills, fillCount * 2);
            for (int i = fillCount; i < fills.length; i++) {
                fills[i] = new Fill();
            }
        }
        return fills[fillCount++];
    }

    /** Appends an entry for the caller to fill in. */
    public Cancel addCancel() {
        if (cancelCount == cancels.length) {
            cancels = Arrays.copyOf(cancels, cancelCount * 2);
            for (int i = cancelCount; i < cancels.length; i++) {
                cancels[i] = new Cancel();
            }
        }
        return cancels[cancelCount++];
    }

    /** Appends a level-change entry without looking for an existing one: for decoders of stored results. */
    public LevelChange addLevelChange() {
        if (levelChangeCount == levelChanges.length) {
            levelChanges = Arrays.copyOf(levelChanges, levelChangeCount * 2);
            for (int i = levelChangeCount; i < levelChanges.length; i++) {
                levelChanges[i] = new LevelChange();
            }
        }
        return levelChanges[levelChangeCount++];
    }

    /**
     * The entry for (symbol, side, price): the existing one if this result already touched that level,
     * else a new one appended. Entries stay in the order levels were first touched.
     */
    public LevelChange levelChange(final int symbol, final Side side, final long price) {
        for (int i = 0; i < levelChangeCount; i++) {
            final LevelChange change = levelChanges[i];
            if (change.price == price && change.side == side && change.symbol == symbol) {
                return change;
            }
        }
        final LevelChange change = addLevelChange();
        change.symbol = symbol;
        change.side = side;
        change.price = price;
        return change;
    }

    /** A canonical, complete text form: two results are equal exactly when these are equal. */
    public void appendTo(final StringBuilder sb) {
        sb.append(commandType);
        if (isRejected()) {
            sb.append(" REJECTED ").append(rejectReason);
        }
        sb.append(" order=").append(orderId).append('/').append(account).append('/').append(clientOrderId)
            .append(" sym=").append(symbol).append(' ').append(side).append(' ').append(orderType).append(' ').append(timeInForce)
            .append(' ').append(quantity).append('@').append(price)
            .append(" leaves=").append(leavesQuantity).append(" cum=").append(cumulativeQuantity)
            .append(' ').append(orderStatus).append(" affected=").append(affectedOrders);
        if (balanceAvailable != 0 || balanceHeld != 0 || fundsNeeded != 0) {
            sb.append(" available=").append(balanceAvailable).append(" held=").append(balanceHeld).append(" needed=").append(fundsNeeded);
        }
        for (int i = 0; i < fillCount; i++) {
            sb.append("\n  ");
            fills[i].appendTo(sb);
        }
        for (int i = 0; i < cancelCount; i++) {
            sb.append("\n  ");
            cancels[i].appendTo(sb);
        }
        for (int i = 0; i < levelChangeCount; i++) {
            sb.append("\n  ");
            levelChanges[i].appendTo(sb);
        }
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder(128);
        appendTo(sb);
        return sb.toString();
    }
}
