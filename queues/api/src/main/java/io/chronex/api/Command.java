package io.chronex.api;

/**
 * One input to the engine. A mutable DTO meant to be reused: decoders fill it, the engine reads it
 * and never keeps a reference. Which fields count depends on {@link #type}; see docs/engine.md.
 */
public final class Command {
    /** Largest accepted price or budget; keeps every price x quantity sum far from overflow. */
    public static final long MAX_PRICE = 1_000_000_000_000_000L;
    /** Largest accepted quantity. */
    public static final long MAX_QUANTITY = 1_000_000_000_000L;
    /** Symbol id meaning "every symbol" where a command allows it; real symbol ids are non-zero. */
    public static final int ALL_SYMBOLS = 0;

    public CommandType type;
    public long account;
    public int symbol;
    /** NEW_ORDER: the new order's id; CANCEL/REPLACE/REDUCE/MOVE: the target when orderId is 0. */
    public long clientOrderId;
    /** CANCEL/REPLACE/REDUCE/MOVE: the engine order id of the target, or 0 to use clientOrderId. */
    public long orderId;
    /** REPLACE: the order's client order id after the replace, or 0 to keep it. */
    public long newClientOrderId;
    public Side side;
    public OrderType orderType;
    public TimeInForce timeInForce;
    public boolean postOnly;
    /** Limit price in ticks of the symbol's price scale; the budget for FOK_BUDGET. */
    public long price;
    /**
     * Lots: the order quantity; REPLACE: new total quantity; REDUCE: how much to take off; DEPOSIT,
     * WITHDRAW, ADJUST: the amount in the asset's units (the asset's id is in {@link #symbol}, the
     * reference id in {@link #clientOrderId}).
     */
    public long quantity;
    /**
     * NEW_ORDER, bids in symbols with assets: the price the order's funds are held at (exchange-core's
     * reserveBidPrice), at or above the limit; 0 holds at the limit price and follows it on MOVE and REPLACE.
     */
    public long reservePrice;

    /** SET_ACCOUNT_LIMITS: maximum quantity of one order, 0 = no limit. */
    public long maxOrderQuantity;
    /** SET_ACCOUNT_LIMITS: maximum price x quantity of one order, 0 = no limit. */
    public long maxOrderNotional;
    /** SET_ACCOUNT_LIMITS: maximum resting orders of the account, 0 = no limit. */
    public int maxOpenOrders;
    /** SET_ACCOUNT_LIMITS: the account's self-trade prevention mode. */
    public SelfTradePrevention selfTradePrevention;

    /** Clears every field, so a reused command carries nothing over from its last use. */
    public Command clear() {
        type = null;
        account = 0;
        symbol = 0;
        clientOrderId = 0;
        orderId = 0;
        newClientOrderId = 0;
        side = null;
        orderType = null;
        timeInForce = null;
        postOnly = false;
        price = 0;
        quantity = 0;
        reservePrice = 0;
        maxOrderQuantity = 0;
        maxOrderNotional = 0;
        maxOpenOrders = 0;
        selfTradePrevention = null;
        return this;
    }

    public Command newOrder(final long account, final int symbol, final long clientOrderId, final Side side,
                            final OrderType orderType, final TimeInForce timeInForce, final long price, final long quantity) {
        clear();
        this.type = CommandType.NEW_ORDER;
        this.account = account;
        this.symbol = symbol;
        this.clientOrderId = clientOrderId;
        this.side = side;
        this.orderType = orderType;
        this.timeInForce = timeInForce;
        this.price = price;
        this.quantity = quantity;
        return this;
    }

    /** A GTC limit order. */
    public Command limit(final long account, final int symbol, final long clientOrderId, final Side side,
                         final long price, final long quantity) {
        return newOrder(account, symbol, clientOrderId, side, OrderType.LIMIT, TimeInForce.GTC, price, quantity);
    }

    public Command cancel(final long account, final long clientOrderId) {
        clear();
        this.type = CommandType.CANCEL;
        this.account = account;
        this.clientOrderId = clientOrderId;
        return this;
    }

    public Command replace(final long account, final long clientOrderId, final long newClientOrderId,
                           final long price, final long quantity) {
        clear();
        this.type = CommandType.REPLACE;
        this.account = account;
        this.clientOrderId = clientOrderId;
        this.newClientOrderId = newClientOrderId;
        this.price = price;
        this.quantity = quantity;
        return this;
    }

    public Command reduce(final long account, final long clientOrderId, final long by) {
        clear();
        this.type = CommandType.REDUCE;
        this.account = account;
        this.clientOrderId = clientOrderId;
        this.quantity = by;
        return this;
    }

    public Command move(final long account, final long clientOrderId, final long price) {
        clear();
        this.type = CommandType.MOVE;
        this.account = account;
        this.clientOrderId = clientOrderId;
        this.price = price;
        return this;
    }

    public Command massCancel(final long account, final int symbol) {
        clear();
        this.type = CommandType.MASS_CANCEL;
        this.account = account;
        this.symbol = symbol;
        return this;
    }

    /** HALT, RESUME, END_OF_DAY: a command about a symbol only. */
    public Command symbolCommand(final CommandType type, final int symbol) {
        clear();
        this.type = type;
        this.symbol = symbol;
        return this;
    }

    /** KILL_SWITCH_ON, KILL_SWITCH_OFF: a command about an account only. */
    public Command accountCommand(final CommandType type, final long account) {
        clear();
        this.type = type;
        this.account = account;
        return this;
    }

    public Command setReferencePrice(final int symbol, final long price) {
        clear();
        this.type = CommandType.SET_REFERENCE_PRICE;
        this.symbol = symbol;
        this.price = price;
        return this;
    }

    public Command setAccountLimits(final long account, final long maxOrderQuantity, final long maxOrderNotional,
                                    final int maxOpenOrders, final SelfTradePrevention selfTradePrevention) {
        clear();
        this.type = CommandType.SET_ACCOUNT_LIMITS;
        this.account = account;
        this.maxOrderQuantity = maxOrderQuantity;
        this.maxOrderNotional = maxOrderNotional;
        this.maxOpenOrders = maxOpenOrders;
        this.selfTradePrevention = selfTradePrevention;
        return this;
    }

    /** DEPOSIT, WITHDRAW or ADJUST of amount units of an asset, applied once per reference id. */
    public Command money(final CommandType type, final long account, final int asset, final long amount, final long reference) {
        clear();
        this.type = type;
        this.account = account;
        this.symbol = asset;
        this.quantity = amount;
        this.clientOrderId = reference;
        return this;
    }

    public Command copyFrom(final Command other) {
        type = other.type;
        account = other.account;
        symbol = other.symbol;
        clientOrderId = other.clientOrderId;
        orderId = other.orderId;
        newClientOrderId = other.newClientOrderId;
        side = other.side;
        orderType = other.orderType;
        timeInForce = other.timeInForce;
        postOnly = other.postOnly;
        price = other.price;
        quantity = other.quantity;
        reservePrice = other.reservePrice;
        maxOrderQuantity = other.maxOrderQuantity;
        maxOrderNotional = other.maxOrderNotional;
        maxOpenOrders = other.maxOpenOrders;
        selfTradePrevention = other.selfTradePrevention;
        return this;
    }

    @Override
    public String toString() {
        return "Command{" + type + " account=" + account + " symbol=" + symbol + " clOrdId=" + clientOrderId
            + " orderId=" + orderId + " newClOrdId=" + newClientOrderId + " " + side + " " + orderType + " "
            + timeInForce + (postOnly ? " postOnly" : "") + " price=" + price + " qty=" + quantity
            + (reservePrice != 0 ? " reserve=" + reservePrice : "")
            + (type == CommandType.SET_ACCOUNT_LIMITS ? " maxQty=" + maxOrderQuantity + " maxNotional="
            + maxOrderNotional + " maxOpen=" + maxOpenOrders + " stp=" + selfTradePrevention : "") + "}";
    }
}
