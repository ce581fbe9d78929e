package io.chronex.gateway.core;

import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.queues.CommandText;

import java.util.Map;

/**
 * Turns one order-entry request, as any front-end read it ({@link OrderRequest}), into an engine command, or says
 * exactly why not. Prices are decimal text turned into ticks with the symbol's price scale; a price or quantity that is
 * not exactly on the grid is refused, never rounded. The account is always the session's. A balance inquiry becomes
 * BALANCE commands, one per asset asked: the first is filled in here, the others are the same with the next asset and
 * number ({@link #inquiryAsset}). The checks run in one order for every protocol; the texts use the front-end's names
 * for its fields, the codes are FIX's OrdRejReason numbers ({@link Refusal}), which every front-end reports.
 */
public final class OrderEntry {
    /** What {@link #check} and {@link #claim} concluded. */
    public enum Outcome {
        /** The command is filled in: append it. */
        COMMAND,
        /** A field is missing ({@link #missing}) or not in its format: the protocol's answer to a malformed message. */
        MALFORMED,
        /** A valid request the exchange refuses: {@link #reason} and {@link #text}. */
        REFUSED
    }

    /** What {@link #clOrdId} returns for a client order id that breaks {@link ClientOrderIds#RULE}; hashes are never 0. */
    private static final long INVALID = 0;

    private final Instruments instruments;
    private final ClOrdIdTable clOrdIds;
    /** The front-end's name of each field, for the texts of refusals. */
    private final String[] names = new String[RequestField.COUNT];
    private final String inquiryIdRule;
    /** The assets the inquiry checked last asks, report k (1..inquiryCount) for inquiryAssets[k - 1]. */
    private final int[] inquiryAssets;
    public int inquiryCount;
    /** The client order id texts of the command checked last, journalled with it. */
    public final CommandText ids = new CommandText();

    public Outcome outcome;
    /** With MALFORMED: the field, and whether it is missing (else not in its format). */
    public RequestField malformedField;
    public boolean missing;
    public String text;
    /** With REFUSED: the code ({@link Refusal}). */
    public int reason;
    /** The symbol of the request checked last (null when it named none, or one that is not there). */
    public GatewayConfig.Symbol symbol;

    /** With the front-end's names for the fields (every field named). */
    public OrderEntry(final Instruments instruments, final ClOrdIdTable clOrdIds, final Map<RequestField, String> fieldNames) {
        this.instruments = instruments;
        this.clOrdIds = clOrdIds;
        for (final RequestField f : RequestField.values()) {
            names[f.ordinal()] = java.util.Objects.requireNonNull(fieldNames.get(f), f::name);
        }
        this.inquiryIdRule = name(RequestField.INQUIRY_ID) + " must be 1..64 printable ASCII characters (0x21..0x7E: no spaces,"
            + " no control characters), as a " + name(RequestField.CL_ORD_ID);
        this.inquiryAssets = new int[instruments.assetCount()];
    }

    /** The rule an inquiry's own id breaks, in the front-end's words. */
    public String inquiryIdRule() {
        return inquiryIdRule;
    }

    /** The asset report k (1..{@link #inquiryCount}) of the inquiry checked last asks. */
    public int inquiryAsset(final int k) {
        return inquiryAssets[k - 1];
    }

    /** {@link #check}, then {@link #claim}: for a front-end with no admission rule of its own between the two. */
    public Outcome translate(final OrderRequest r, final long account, final Command c) {
        return check(r, account, c) == Outcome.COMMAND ? claim(r, c) : outcome;
    }

    /** Fills c from the request (account forced to the session's), claiming nothing yet. */
    public Outcome check(final OrderRequest r, final long account, final Command c) {
        c.clear();
        ids.clear();
        symbol = null;
        text = null;
        outcome = null;
        c.account = account;
        switch (r.type) {
            case NEW_ORDER -> newOrder(r, c);
            case CANCEL -> cancel(r, c);
            case REPLACE -> replace(r, c);
            case MASS_CANCEL -> massCancel(r, c);
            case BALANCE -> inquiry(r, c);
            default -> throw new IllegalArgumentException("not an order-entry request: " + r.type);
        }
        return outcome;
    }

    private void newOrder(final OrderRequest r, final Command c) {
        c.type = CommandType.NEW_ORDER;
        c.clientOrderId = clOrdId(r, RequestField.CL_ORD_ID, ids.clientOrderId);
        if (c.clientOrderId == INVALID) {
            refuse(Refusal.OTHER, ClientOrderIds.RULE);
            return;
        }
        ids.clientOrderIdLength = r.length(RequestField.CL_ORD_ID);
        if (!symbolAndSide(r, c) || !accountMatches(r, c) || !quantity(r, c)) {
            return;
        }
        if (r.orderType == null) {
            refuse(Refusal.UNSUPPORTED, r.orderTypeRefusal);
            return;
        }
        c.orderType = r.orderType;
        if (r.timeInForce == null) {
            refuse(Refusal.UNSUPPORTED, r.timeInForceRefusal);
            return;
        }
        c.timeInForce = r.timeInForce;
        c.postOnly = r.postOnly;
        if (c.orderType == OrderType.LIMIT && !price(r, c)) {
            return;
        }
        outcome = Outcome.COMMAND;
    }

    private void cancel(final OrderRequest r, final Command c) {
        c.type = CommandType.CANCEL;
        if (!ids(r, c) || !symbolAndSide(r, c) || !accountMatches(r, c)) {
            return;
        }
        outcome = Outcome.COMMAND;
    }

    private void replace(final OrderRequest r, final Command c) {
        c.type = CommandType.REPLACE;
        if (!ids(r, c) || !symbolAndSide(r, c) || !accountMatches(r, c) || !quantity(r, c)) {
            return;
        }
        if (r.orderType != OrderType.LIMIT) {
            refuse(Refusal.OTHER, r.orderTypeRefusal);
            return;
        }
        if (!price(r, c)) {
            return;
        }
        outcome = Outcome.COMMAND;
    }

    private void massCancel(final OrderRequest r, final Command c) {
        c.type = CommandType.MASS_CANCEL;
        c.newClientOrderId = clOrdId(r, RequestField.CL_ORD_ID, ids.newClientOrderId);
        if (c.newClientOrderId == INVALID) {
            refuse(Refusal.OTHER, ClientOrderIds.RULE);
            return;
        }
        ids.newClientOrderIdLength = r.length(RequestField.CL_ORD_ID);
        if (r.allSymbols == null) {
            refuse(Refusal.OTHER, r.scopeRefusal);
            return;
        }
        if (r.allSymbols) {
            c.symbol = Command.ALL_SYMBOLS;
        } else {
            if (!r.has(RequestField.SYMBOL)) {
                malformed(RequestField.SYMBOL, true);
                return;
            }
            symbol = instruments.symbol(r, RequestField.SYMBOL);
            if (symbol == null) {
                refuse(Refusal.UNKNOWN, "unknown symbol " + r.text(RequestField.SYMBOL));
                return;
            }
            c.symbol = symbol.id();
        }
        outcome = Outcome.COMMAND;
    }

    /** BALANCE of one asset (the request's CURRENCY) or of every asset, numbered 1..n with n in quantity. */
    private void inquiry(final OrderRequest r, final Command c) {
        c.type = CommandType.BALANCE;
        if (r.has(RequestField.INQUIRY_ID)) {
            final int offset = r.offset(RequestField.INQUIRY_ID);
            final int length = r.length(RequestField.INQUIRY_ID);
            if (!ClientOrderIds.valid(r.buffer(), offset, length)) {
                refuse(Refusal.OTHER, inquiryIdRule);
                return;
            }
            // Journalled as the request's ClOrdID text, so the answers can echo it.
            r.buffer().getBytes(offset, ids.newClientOrderId, 0, length);
            ids.newClientOrderIdLength = length;
        }
        if (!accountMatches(r, c)) {
            return;
        }
        if (r.frontEndRefusal != null) {
            refuse(Refusal.OTHER, r.frontEndRefusal);
            return;
        }
        if (instruments.assetCount() == 0) {
            refuse(Refusal.OTHER, "no assets: accounts on this exchange hold no money, there is no balance to report");
            return;
        }
        if (r.has(RequestField.CURRENCY)) {
            final AssetSpec asset = instruments.asset(r, RequestField.CURRENCY);
            if (asset == null) {
                refuse(Refusal.OTHER, "unknown " + name(RequestField.CURRENCY) + " " + r.text(RequestField.CURRENCY) + " (assets: "
                    + instruments.assetList() + ")");
                return;
            }
            inquiryAssets[0] = asset.id();
            inquiryCount = 1;
        } else {
            for (int i = 0; i < inquiryAssets.length; i++) {
                inquiryAssets[i] = instruments.asset(i).id();
            }
            inquiryCount = inquiryAssets.length;
        }
        c.symbol = inquiryAssets[0];
        c.clientOrderId = 1;
        c.quantity = inquiryCount;
        outcome = Outcome.COMMAND;
    }

    /** Cancel and replace: ORIG_CL_ORD_ID names the order, CL_ORD_ID is the request's (kept in newClientOrderId). */
    private boolean ids(final OrderRequest r, final Command c) {
        c.clientOrderId = clOrdId(r, RequestField.ORIG_CL_ORD_ID, ids.clientOrderId);
        c.newClientOrderId = clOrdId(r, RequestField.CL_ORD_ID, ids.newClientOrderId);
        if (c.clientOrderId == INVALID || c.newClientOrderId == INVALID) {
            refuse(Refusal.OTHER, ClientOrderIds.RULE);
            return false;
        }
        ids.clientOrderIdLength = r.length(RequestField.ORIG_CL_ORD_ID);
        ids.newClientOrderIdLength = r.length(RequestField.CL_ORD_ID);
        return true;
    }

    private boolean symbolAndSide(final OrderRequest r, final Command c) {
        symbol = instruments.symbol(r, RequestField.SYMBOL);
        if (r.side == null) {
            refuse(Refusal.OTHER, r.sideRefusal);
            return false;
        }
        c.side = r.side;
        if (symbol == null) {
            refuse(Refusal.UNKNOWN, "unknown symbol " + r.text(RequestField.SYMBOL));
            return false;
        }
        c.symbol = symbol.id();
        return true;
    }

    private boolean accountMatches(final OrderRequest r, final Command c) {
        if (r.has(RequestField.ACCOUNT)
            && Decimals.whole(r.buffer(), r.offset(RequestField.ACCOUNT), r.length(RequestField.ACCOUNT)) != c.account) {
            refuse(Refusal.UNKNOWN_ACCOUNT, name(RequestField.ACCOUNT) + " " + r.text(RequestField.ACCOUNT)
                + " is not this session's account (" + c.account + ")");
            return false;
        }
        return true;
    }

    private boolean quantity(final OrderRequest r, final Command c) {
        if (!r.has(RequestField.ORDER_QTY)) {
            malformed(RequestField.ORDER_QTY, true);
            return false;
        }
        final long qty = Decimals.scaled(r.buffer(), r.offset(RequestField.ORDER_QTY), r.length(RequestField.ORDER_QTY), 0);
        if (qty == Decimals.MALFORMED) {
            malformed(RequestField.ORDER_QTY, false);
            return false;
        }
        final String name = name(RequestField.ORDER_QTY);
        if (qty == Decimals.NOT_EXACT) {
            refuse(Refusal.INCORRECT_QUANTITY, name + " " + r.text(RequestField.ORDER_QTY) + " is not a whole number of units");
            return false;
        }
        if (qty <= 0 || qty > Command.MAX_QUANTITY) {
            refuse(Refusal.INCORRECT_QUANTITY, name + " " + r.text(RequestField.ORDER_QTY) + " must be 1.." + Command.MAX_QUANTITY);
            return false;
        }
        if (qty % symbol.lotSize() != 0) {
            refuse(Refusal.INCORRECT_QUANTITY, name + " " + qty + " is not a multiple of the lot size " + symbol.lotSize() + " of "
                + symbol.name());
            return false;
        }
        c.quantity = qty;
        return true;
    }

    private boolean price(final OrderRequest r, final Command c) {
        if (!r.has(RequestField.PRICE)) {
            malformed(RequestField.PRICE, true);
            return false;
        }
        final long price = Decimals.scaled(r.buffer(), r.offset(RequestField.PRICE), r.length(RequestField.PRICE),
            symbol.priceDecimals());
        if (price == Decimals.MALFORMED) {
            malformed(RequestField.PRICE, false);
            return false;
        }
        if (price == Decimals.NOT_EXACT || (price > 0 && price % symbol.tickSize() != 0)) {
            refuse(Refusal.OTHER, name(RequestField.PRICE) + " " + r.text(RequestField.PRICE) + " is not on the tick of "
                + symbol.name() + " (" + Instruments.tickText(symbol) + "); prices are never rounded");
            return false;
        }
        if (price <= 0 || price > Command.MAX_PRICE) {
            refuse(Refusal.OTHER, name(RequestField.PRICE) + " " + r.text(RequestField.PRICE) + " must be positive");
            return false;
        }
        c.price = price;
        return true;
    }

    /** The engine's id for the client order id in field (its text copied into text), or INVALID if it breaks the rule. */
    private static long clOrdId(final OrderRequest r, final RequestField field, final byte[] text) {
        final int offset = r.offset(field);
        final int length = r.length(field);
        if (!ClientOrderIds.valid(r.buffer(), offset, length)) {
            return INVALID;
        }
        r.buffer().getBytes(offset, text, 0, length);
        return ClientOrderIds.hash(r.buffer(), offset, length);
    }

    /**
     * The last step before a command is journalled: the id it makes live (a new order's, a replace's new one) is claimed
     * in the table, so answers can carry its text back; an id another live order of the account holds under a different
     * text (a hash collision) is refused, as is a cancel or replace whose ORIG_CL_ORD_ID hashes to such an order's id, which
     * it would otherwise reach.
     */
    public Outcome claim(final OrderRequest r, final Command c) {
        final CommandType type = c.type;
        if (type == CommandType.CANCEL || type == CommandType.REPLACE) {
            if (clOrdIds.heldByAnother(c.account, c.clientOrderId, r.buffer(), r.offset(RequestField.ORIG_CL_ORD_ID),
                r.length(RequestField.ORIG_CL_ORD_ID))) {
                refuse(Refusal.UNKNOWN, name(RequestField.ORIG_CL_ORD_ID) + " " + r.text(RequestField.ORIG_CL_ORD_ID)
                    + " is not a live order of this session");
                return outcome;
            }
        }
        // A replace to a different text claims it even if the hash is the same (the claim then finds the collision).
        final boolean claims = type == CommandType.NEW_ORDER || (type == CommandType.REPLACE && !sameTexts());
        if (claims && clOrdIds.claim(c.account, type == CommandType.NEW_ORDER ? c.clientOrderId : c.newClientOrderId, r.buffer(),
            r.offset(RequestField.CL_ORD_ID), r.length(RequestField.CL_ORD_ID)) == ClOrdIdTable.Claim.COLLISION) {
            refuse(Refusal.OTHER, name(RequestField.CL_ORD_ID) + " " + r.text(RequestField.CL_ORD_ID) + " has the same 64-bit id"
                + " as another live order's " + name(RequestField.CL_ORD_ID) + " (a hash collision, about one in 10^14 even at"
                + " 100,000 live orders); send it with another " + name(RequestField.CL_ORD_ID));
        }
        return outcome;
    }

    private boolean sameTexts() {
        return java.util.Arrays.equals(ids.clientOrderId, 0, ids.clientOrderIdLength,
            ids.newClientOrderId, 0, ids.newClientOrderIdLength);
    }

    private String name(final RequestField field) {
        return names[field.ordinal()];
    }

    private void malformed(final RequestField field, final boolean isMissing) {
        outcome = Outcome.MALFORMED;
        malformedField = field;
        missing = isMissing;
    }

    /** Refuses the request: also for a front-end's own rule between {@link #check} and {@link #claim} (FIX: its route). */
    public void refuse(final int code, final String why) {
        outcome = Outcome.REFUSED;
        reason = code;
        text = why;
    }
}
