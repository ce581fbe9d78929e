package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.CommandText;

/**
 * Turns one decoded FIX application message into an engine command, or says exactly why not.
 * Prices are decimal text turned into ticks with the symbol's price scale; a price or quantity
 * that is not exactly on the grid is refused, never rounded. The account is always the session's.
 * A CollateralInquiry (a balance query) becomes BALANCE commands, one per asset asked: the first is
 * filled in here, the others are the same with the next asset and number ({@link #inquiryAsset}).
 */
final class OrderEntry {
    /** What {@link #translate} concluded. */
    enum Outcome {
        /** The command is filled in: append it. */
        COMMAND,
        /** A required tag is missing or malformed: a session-level Reject (reason, tag). */
        SESSION_REJECT,
        /** A valid message the exchange refuses: an ExecutionReport, OrderCancelReject or mass-cancel report with the text. */
        BUSINESS_REJECT
    }

    private final GatewayConfig.Symbol[] symbols;
    private final byte[][] symbolNames;
    /** The engine's assets in its file's order, which is the order an inquiry for all of them is answered in. */
    private final AssetSpec[] assets;
    private final byte[][] assetCodes;
    /** For the Text of an inquiry naming an asset that is not there. */
    private final String assetList;
    /** The assets the inquiry translated last asks, report k (1..inquiryCount) for inquiryAssets[k - 1]. */
    private final int[] inquiryAssets;
    int inquiryCount;
    private final ClOrdIdTable clOrdIds;
    /** The ClOrdID texts of the command translated last, journalled with it. */
    final CommandText ids = new CommandText();
    /** Third-party routes of requests (null: not kept, as in tests of order entry alone); set by {@link Gateway}. */
    RequestRoutes routes;

    static final String INQUIRY_ID_RULE = "CollInquiryID must be 1..64 printable ASCII characters (0x21..0x7E: no spaces,"
        + " no control characters), as a ClOrdID";

    /** What {@link #clOrdId} returns for a ClOrdID that breaks {@link ClientOrderIds#RULE}; hashes are never 0. */
    private static final long INVALID = 0;

    Outcome outcome;
    int sessionRejectReason;
    int rejectTag;
    String text;
    /** FIX OrdRejReason / CxlRejReason / MassCancelRejectReason for a business reject. */
    int businessReason;
    GatewayConfig.Symbol symbol;

    OrderEntry(final java.util.List<GatewayConfig.Symbol> symbols, final ClOrdIdTable clOrdIds) {
        this(symbols, java.util.List.of(), clOrdIds);
    }

    OrderEntry(final java.util.List<GatewayConfig.Symbol> symbols, final java.util.List<AssetSpec> assets, final ClOrdIdTable clOrdIds) {
        this.clOrdIds = clOrdIds;
        this.assets = assets.toArray(new AssetSpec[0]);
        this.assetCodes = new byte[this.assets.length][];
        this.inquiryAssets = new int[this.assets.length];
        final StringBuilder list = new StringBuilder();
        for (int i = 0; i < this.assets.length; i++) {
            assetCodes[i] = this.assets[i].code().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            list.append(i == 0 ? "" : ", ").append(this.assets[i].code());
        }
        this.assetList = list.toString();
        this.symbols = symbols.toArray(new GatewayConfig.Symbol[0]);
        this.symbolNames = new byte[this.symbols.length][];
        for (int i = 0; i < this.symbols.length; i++) {
            symbolNames[i] = this.symbols[i].name().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    GatewayConfig.Symbol symbolById(final int id) {
        for (final GatewayConfig.Symbol s : symbols) {
            if (s.id() == id) {
                return s;
            }
        }
        return null;
    }

    AssetSpec assetById(final int id) {
        for (final AssetSpec a : assets) {
            if (a.id() == id) {
                return a;
            }
        }
        return null;
    }

    /** The asset report k (1..{@link #inquiryCount}) of the inquiry translated last asks. */
    int inquiryAsset(final int k) {
        return inquiryAssets[k - 1];
    }

    /** Fills c from the message (account forced to the session's). */
    Outcome translate(final FixDecoder m, final int msgType, final long account, final Command c) {
        c.clear();
        ids.clear();
        symbol = null;
        text = null;
        c.account = account;
        switch (msgType) {
            case FixMsgTypes.NEW_ORDER_SINGLE -> newOrder(m, c);
            case FixMsgTypes.ORDER_CANCEL_REQUEST -> cancel(m, c);
            case FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> replace(m, c);
            case FixMsgTypes.ORDER_MASS_CANCEL_REQUEST -> massCancel(m, c);
            case FixMsgTypes.COLLATERAL_INQUIRY -> inquiry(m, c);
            default -> throw new IllegalArgumentException("not an order-entry message: " + msgType);
        }
        if (outcome == Outcome.COMMAND && routes != null) {
            // Before any ClOrdID is claimed: a request refused for its route leaves nothing behind.
            final String refusal = routes.admit(m, c);
            if (refusal != null) {
                business(99, refusal);
            }
        }
        if (outcome == Outcome.COMMAND) {
            claimIds(m, c);
        }
        return outcome;
    }

    private void newOrder(final FixDecoder m, final Command c) {
        if (!required(m, FixTags.CL_ORD_ID) || !required(m, FixTags.SYMBOL) || !required(m, FixTags.SIDE)
            || !required(m, FixTags.ORDER_QTY) || !required(m, FixTags.ORD_TYPE) || !required(m, FixTags.TRANSACT_TIME)) {
            return;
        }
        c.type = CommandType.NEW_ORDER;
        c.clientOrderId = clOrdId(m, FixTags.CL_ORD_ID, ids.clientOrderId);
        if (c.clientOrderId == INVALID) {
            business(99, ClientOrderIds.RULE);
            return;
        }
        ids.clientOrderIdLength = m.valueLength(FixTags.CL_ORD_ID);
        if (!symbolAndSide(m, c) || !accountMatches(m, c) || !quantity(m, c)) {
            return;
        }
        final char ordType = m.charValue(FixTags.ORD_TYPE);
        if (ordType == '2') {
            c.orderType = OrderType.LIMIT;
        } else if (ordType == '1') {
            c.orderType = OrderType.MARKET;
        } else {
            business(11, "OrdType " + m.stringValue(FixTags.ORD_TYPE) + " is not supported (1 market, 2 limit)");
            return;
        }
        final char tif = m.has(FixTags.TIME_IN_FORCE) ? m.charValue(FixTags.TIME_IN_FORCE) : '0';
        switch (tif) {
            case '0' -> c.timeInForce = TimeInForce.DAY;
            case '1' -> c.timeInForce = TimeInForce.GTC;
            case '3' -> c.timeInForce = TimeInForce.IOC;
            case '4' -> c.timeInForce = TimeInForce.FOK;
            default -> {
                business(11, "TimeInForce " + m.stringValue(FixTags.TIME_IN_FORCE) + " is not supported (0 day, 1 GTC, 3 IOC, 4 FOK)");
                return;
            }
        }
        if (m.has(FixTags.EXEC_INST)) {
            // ExecInst 6 (participate, don't initiate) is post-only.
            final int offset = m.valueOffset(FixTags.EXEC_INST);
            for (int i = 0; i < m.valueLength(FixTags.EXEC_INST); i++) {
                if (m.buffer().getByte(offset + i) == '6') {
                    c.postOnly = true;
                }
            }
        }
        if (c.orderType == OrderType.LIMIT) {
            if (!required(m, FixTags.PRICE) || !price(m, c)) {
                return;
            }
        }
        outcome = Outcome.COMMAND;
    }

    private void cancel(final FixDecoder m, final Command c) {
        if (!required(m, FixTags.ORIG_CL_ORD_ID) || !required(m, FixTags.CL_ORD_ID) || !required(m, FixTags.SIDE)
            || !required(m, FixTags.SYMBOL) || !required(m, FixTags.TRANSACT_TIME)) {
            return;
        }
        c.type = CommandType.CANCEL;
        if (!ids(m, c) || !symbolAndSide(m, c) || !accountMatches(m, c)) {
            return;
        }
        outcome = Outcome.COMMAND;
    }

    private void replace(final FixDecoder m, final Command c) {
        if (!required(m, FixTags.ORIG_CL_ORD_ID) || !required(m, FixTags.CL_ORD_ID) || !required(m, FixTags.SIDE)
            || !required(m, FixTags.SYMBOL) || !required(m, FixTags.ORDER_QTY) || !required(m, FixTags.ORD_TYPE)
            || !required(m, FixTags.TRANSACT_TIME)) {
            return;
        }
        c.type = CommandType.REPLACE;
        if (!ids(m, c) || !symbolAndSide(m, c) || !accountMatches(m, c) || !quantity(m, c)) {
            return;
        }
        if (m.charValue(FixTags.ORD_TYPE) != '2') {
            business(99, "only limit orders can be replaced (OrdType 2)");
            return;
        }
        if (!required(m, FixTags.PRICE) || !price(m, c)) {
            return;
        }
        outcome = Outcome.COMMAND;
    }

    private void massCancel(final FixDecoder m, final Command c) {
        if (!required(m, FixTags.CL_ORD_ID) || !required(m, FixTags.MASS_CANCEL_REQUEST_TYPE) || !required(m, FixTags.TRANSACT_TIME)) {
            return;
        }
        c.type = CommandType.MASS_CANCEL;
        c.newClientOrderId = clOrdId(m, FixTags.CL_ORD_ID, ids.newClientOrderId);
        if (c.newClientOrderId == INVALID) {
            business(99, ClientOrderIds.RULE);
            return;
        }
        ids.newClientOrderIdLength = m.valueLength(FixTags.CL_ORD_ID);
        final char type = m.charValue(FixTags.MASS_CANCEL_REQUEST_TYPE);
        if (type == '1') {
            if (!required(m, FixTags.SYMBOL)) {
                return;
            }
            symbol = symbol(m);
            if (symbol == null) {
                business(1, "unknown symbol " + m.stringValue(FixTags.SYMBOL));
                return;
            }
            c.symbol = symbol.id();
        } else if (type == '7') {
            c.symbol = Command.ALL_SYMBOLS;
        } else {
            business(99, "MassCancelRequestType " + m.stringValue(FixTags.MASS_CANCEL_REQUEST_TYPE)
                + " is not supported (1 by symbol, 7 all)");
            return;
        }
        outcome = Outcome.COMMAND;
    }

    /**
     * CollateralInquiry: BALANCE of one asset (Currency) or of every asset, numbered 1..n with n in quantity. The
     * CollInquiryID, if any, is journalled as the request's ClOrdID text, so the reports can echo it.
     */
    private void inquiry(final FixDecoder m, final Command c) {
        c.type = CommandType.BALANCE;
        if (m.has(FixTags.COLL_INQUIRY_ID)) {
            final int offset = m.valueOffset(FixTags.COLL_INQUIRY_ID);
            final int length = m.valueLength(FixTags.COLL_INQUIRY_ID);
            if (!ClientOrderIds.valid(m.buffer(), offset, length)) {
                business(99, INQUIRY_ID_RULE);
                return;
            }
            m.buffer().getBytes(offset, ids.newClientOrderId, 0, length);
            ids.newClientOrderIdLength = length;
        }
        if (!accountMatches(m, c)) {
            return;
        }
        if (m.has(FixTags.ON_BEHALF_OF_COMP_ID)) {
            // Its reports would need a route per report; nothing asks for it yet.
            business(99, "CollateralInquiry with OnBehalfOfCompID (third-party routing) is not supported");
            return;
        }
        if (m.has(FixTags.SUBSCRIPTION_REQUEST_TYPE) && m.charValue(FixTags.SUBSCRIPTION_REQUEST_TYPE) != '0') {
            business(99, "SubscriptionRequestType " + m.stringValue(FixTags.SUBSCRIPTION_REQUEST_TYPE)
                + " is not supported: a CollateralInquiry is answered once (0, snapshot)");
            return;
        }
        if (assets.length == 0) {
            business(99, "no assets: accounts on this exchange hold no money, there is no balance to report");
            return;
        }
        if (m.has(FixTags.CURRENCY)) {
            final AssetSpec asset = asset(m);
            if (asset == null) {
                business(99, "unknown Currency " + m.stringValue(FixTags.CURRENCY) + " (assets: " + assetList + ")");
                return;
            }
            inquiryAssets[0] = asset.id();
            inquiryCount = 1;
        } else {
            for (int i = 0; i < assets.length; i++) {
                inquiryAssets[i] = assets[i].id();
            }
            inquiryCount = assets.length;
        }
        c.symbol = inquiryAssets[0];
        c.clientOrderId = 1;
        c.quantity = inquiryCount;
        outcome = Outcome.COMMAND;
    }

    private AssetSpec asset(final FixDecoder m) {
        for (int i = 0; i < assets.length; i++) {
            if (m.valueEquals(FixTags.CURRENCY, assetCodes[i])) {
                return assets[i];
            }
        }
        return null;
    }

    /** Cancel and replace: OrigClOrdID names the order, ClOrdID is the request's (kept in newClientOrderId). */
    private boolean ids(final FixDecoder m, final Command c) {
        c.clientOrderId = clOrdId(m, FixTags.ORIG_CL_ORD_ID, ids.clientOrderId);
        c.newClientOrderId = clOrdId(m, FixTags.CL_ORD_ID, ids.newClientOrderId);
        if (c.clientOrderId == INVALID || c.newClientOrderId == INVALID) {
            business(99, ClientOrderIds.RULE);
            return false;
        }
        ids.clientOrderIdLength = m.valueLength(FixTags.ORIG_CL_ORD_ID);
        ids.newClientOrderIdLength = m.valueLength(FixTags.CL_ORD_ID);
        return true;
    }

    private boolean symbolAndSide(final FixDecoder m, final Command c) {
        symbol = symbol(m);
        final char side = m.charValue(FixTags.SIDE);
        if (side == '1') {
            c.side = Side.BUY;
        } else if (side == '2') {
            c.side = Side.SELL;
        } else {
            business(99, "Side " + m.stringValue(FixTags.SIDE) + " is not supported (1 buy, 2 sell)");
            return false;
        }
        if (symbol == null) {
            business(1, "unknown symbol " + m.stringValue(FixTags.SYMBOL));
            return false;
        }
        c.symbol = symbol.id();
        return true;
    }

    private boolean accountMatches(final FixDecoder m, final Command c) {
        if (m.has(FixTags.ACCOUNT) && m.longValue(FixTags.ACCOUNT) != c.account) {
            business(15, "Account " + m.stringValue(FixTags.ACCOUNT) + " is not this session's account (" + c.account + ")");
            return false;
        }
        return true;
    }

    private boolean quantity(final FixDecoder m, final Command c) {
        final long qty = m.scaledDecimal(FixTags.ORDER_QTY, 0);
        if (qty == FixDecoder.DECIMAL_MALFORMED || qty == FixDecoder.DECIMAL_MISSING) {
            sessionReject(6, FixTags.ORDER_QTY);
            return false;
        }
        if (qty == FixDecoder.DECIMAL_NOT_EXACT) {
            business(13, "OrderQty " + m.stringValue(FixTags.ORDER_QTY) + " is not a whole number of units");
            return false;
        }
        if (qty <= 0 || qty > Command.MAX_QUANTITY) {
            business(13, "OrderQty " + m.stringValue(FixTags.ORDER_QTY) + " must be 1.." + Command.MAX_QUANTITY);
            return false;
        }
        if (qty % symbol.lotSize() != 0) {
            business(13, "OrderQty " + qty + " is not a multiple of the lot size " + symbol.lotSize() + " of " + symbol.name());
            return false;
        }
        c.quantity = qty;
        return true;
    }

    private boolean price(final FixDecoder m, final Command c) {
        final long price = m.scaledDecimal(FixTags.PRICE, symbol.priceDecimals());
        if (price == FixDecoder.DECIMAL_MALFORMED || price == FixDecoder.DECIMAL_MISSING) {
            sessionReject(6, FixTags.PRICE);
            return false;
        }
        if (price == FixDecoder.DECIMAL_NOT_EXACT || (price > 0 && price % symbol.tickSize() != 0)) {
            business(99, "Price " + m.stringValue(FixTags.PRICE) + " is not on the tick of " + symbol.name() + " ("
                + tickText(symbol) + "); prices are never rounded");
            return false;
        }
        if (price <= 0 || price > Command.MAX_PRICE) {
            business(99, "Price " + m.stringValue(FixTags.PRICE) + " must be positive");
            return false;
        }
        c.price = price;
        return true;
    }

    static String tickText(final GatewayConfig.Symbol s) {
        return java.math.BigDecimal.valueOf(s.tickSize(), s.priceDecimals()).toPlainString();
    }

    private GatewayConfig.Symbol symbol(final FixDecoder m) {
        for (int i = 0; i < symbols.length; i++) {
            if (m.valueEquals(FixTags.SYMBOL, symbolNames[i])) {
                return symbols[i];
            }
        }
        return null;
    }

    /** The engine's id for the ClOrdID in tag (its text copied into text), or INVALID if it breaks the rule. */
    private static long clOrdId(final FixDecoder m, final int tag, final byte[] text) {
        final int offset = m.valueOffset(tag);
        final int length = m.valueLength(tag);
        if (!ClientOrderIds.valid(m.buffer(), offset, length)) {
            return INVALID;
        }
        m.buffer().getBytes(offset, text, 0, length);
        return ClientOrderIds.hash(m.buffer(), offset, length);
    }

    /**
     * The last step before a command is journalled: the ClOrdID it makes live (a new order's, a
     * replace's new one) is claimed in the table, so reports can carry its text back; an id another
     * live order of the account holds under a different text (a hash collision) is refused, as is a
     * cancel or replace whose OrigClOrdID hashes to such an order's id, which it would otherwise reach.
     */
    private void claimIds(final FixDecoder m, final Command c) {
        final CommandType type = c.type;
        if (type == CommandType.CANCEL || type == CommandType.REPLACE) {
            if (clOrdIds.heldByAnother(c.account, c.clientOrderId, m.buffer(), m.valueOffset(FixTags.ORIG_CL_ORD_ID),
                m.valueLength(FixTags.ORIG_CL_ORD_ID))) {
                business(1, "OrigClOrdID " + m.stringValue(FixTags.ORIG_CL_ORD_ID) + " is not a live order of this session");
                return;
            }
        }
        // A replace to a different text claims it even if the hash is the same (the claim then finds the collision).
        final boolean claims = type == CommandType.NEW_ORDER || (type == CommandType.REPLACE && !sameTexts());
        if (claims && clOrdIds.claim(c.account, type == CommandType.NEW_ORDER ? c.clientOrderId : c.newClientOrderId, m.buffer(),
            m.valueOffset(FixTags.CL_ORD_ID), m.valueLength(FixTags.CL_ORD_ID)) == ClOrdIdTable.Claim.COLLISION) {
            business(99, "ClOrdID " + m.stringValue(FixTags.CL_ORD_ID) + " has the same 64-bit id as another live order's ClOrdID"
                + " (a hash collision, about one in 10^14 even at 100,000 live orders); send it with another ClOrdID");
        }
    }

    private boolean sameTexts() {
        return java.util.Arrays.equals(ids.clientOrderId, 0, ids.clientOrderIdLength,
            ids.newClientOrderId, 0, ids.newClientOrderIdLength);
    }

    private boolean required(final FixDecoder m, final int tag) {
        if (!m.has(tag)) {
            sessionReject(1, tag);
            return false;
        }
        return true;
    }

    private void sessionReject(final int reason, final int tag) {
        outcome = Outcome.SESSION_REJECT;
        sessionRejectReason = reason;
        rejectTag = tag;
        text = reason == 1 ? "required tag " + tag + " missing" : "tag " + tag + " has an incorrect format";
    }

    private void business(final int reason, final String why) {
        outcome = Outcome.BUSINESS_REJECT;
        businessReason = reason;
        text = why;
    }
}
