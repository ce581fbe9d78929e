package io.chronex.gateway;

import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.gateway.core.OrderRequest;
import io.chronex.gateway.core.RequestField;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;

import java.util.EnumMap;
import java.util.Map;

/**
 * The FIX side of order entry: reads a decoded NewOrderSingle, OrderCancelRequest, OrderCancelReplaceRequest,
 * OrderMassCancelRequest or CollateralInquiry into the core's {@link OrderRequest}: the tags FIX 4.4 requires of the
 * message (one missing is a session-level Reject, {@link #missingTag}), the text fields as spans of the message, FIX's
 * codes (Side, OrdType, TimeInForce, ExecInst, MassCancelRequestType) in the exchange's terms.
 */
final class FixOrderRequests {
    /** The FIX names of the core's fields, for the texts of refusals. */
    static final Map<RequestField, String> NAMES = names();
    /** Cached: values() copies its array at every call, and reading a request allocates nothing. */
    private static final RequestField[] FIELDS = RequestField.values();
    private static final int[] TAGS = new int[FIELDS.length];

    static {
        TAGS[RequestField.CL_ORD_ID.ordinal()] = FixTags.CL_ORD_ID;
        TAGS[RequestField.ORIG_CL_ORD_ID.ordinal()] = FixTags.ORIG_CL_ORD_ID;
        TAGS[RequestField.SYMBOL.ordinal()] = FixTags.SYMBOL;
        TAGS[RequestField.ORDER_QTY.ordinal()] = FixTags.ORDER_QTY;
        TAGS[RequestField.PRICE.ordinal()] = FixTags.PRICE;
        TAGS[RequestField.ACCOUNT.ordinal()] = FixTags.ACCOUNT;
        TAGS[RequestField.INQUIRY_ID.ordinal()] = FixTags.COLL_INQUIRY_ID;
        TAGS[RequestField.CURRENCY.ordinal()] = FixTags.CURRENCY;
    }

    private static final int[] NEW_ORDER_REQUIRED = {FixTags.CL_ORD_ID, FixTags.SYMBOL, FixTags.SIDE, FixTags.ORDER_QTY, FixTags.ORD_TYPE,
        FixTags.TRANSACT_TIME};
    private static final int[] CANCEL_REQUIRED = {FixTags.ORIG_CL_ORD_ID, FixTags.CL_ORD_ID, FixTags.SIDE, FixTags.SYMBOL,
        FixTags.TRANSACT_TIME};
    private static final int[] REPLACE_REQUIRED = {FixTags.ORIG_CL_ORD_ID, FixTags.CL_ORD_ID, FixTags.SIDE, FixTags.SYMBOL,
        FixTags.ORDER_QTY, FixTags.ORD_TYPE, FixTags.TRANSACT_TIME};
    private static final int[] MASS_CANCEL_REQUIRED = {FixTags.CL_ORD_ID, FixTags.MASS_CANCEL_REQUEST_TYPE, FixTags.TRANSACT_TIME};
    private static final int[] NONE = {};

    /** After {@link #read} returned false: the tag FIX requires that the message lacks. */
    int missingTag;

    private static Map<RequestField, String> names() {
        final Map<RequestField, String> names = new EnumMap<>(RequestField.class);
        names.put(RequestField.CL_ORD_ID, "ClOrdID");
        names.put(RequestField.ORIG_CL_ORD_ID, "OrigClOrdID");
        names.put(RequestField.SYMBOL, "Symbol");
        names.put(RequestField.ORDER_QTY, "OrderQty");
        names.put(RequestField.PRICE, "Price");
        names.put(RequestField.ACCOUNT, "Account");
        names.put(RequestField.INQUIRY_ID, "CollInquiryID");
        names.put(RequestField.CURRENCY, "Currency");
        return names;
    }

    /** The FIX tag of a core field (for a session-level Reject naming it). */
    static int tag(final RequestField field) {
        return TAGS[field.ordinal()];
    }

    /** Fills r from the message; false when a tag FIX requires of it is missing ({@link #missingTag}). */
    boolean read(final FixDecoder m, final int msgType, final OrderRequest r) {
        final int[] required = switch (msgType) {
            case FixMsgTypes.NEW_ORDER_SINGLE -> NEW_ORDER_REQUIRED;
            case FixMsgTypes.ORDER_CANCEL_REQUEST -> CANCEL_REQUIRED;
            case FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> REPLACE_REQUIRED;
            case FixMsgTypes.ORDER_MASS_CANCEL_REQUEST -> MASS_CANCEL_REQUIRED;
            case FixMsgTypes.COLLATERAL_INQUIRY -> NONE;
            default -> throw new IllegalArgumentException("not an order-entry message: " + msgType);
        };
        for (final int tag : required) {
            if (!m.has(tag)) {
                missingTag = tag;
                return false;
            }
        }
        r.reset(type(msgType), m.buffer());
        for (final RequestField f : FIELDS) {
            final int tag = TAGS[f.ordinal()];
            if (m.has(tag)) {
                r.set(f, m.valueOffset(tag), m.valueLength(tag));
            }
        }
        side(m, r);
        if (msgType == FixMsgTypes.NEW_ORDER_SINGLE) {
            newOrderCodes(m, r);
        } else if (msgType == FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST) {
            if (m.charValue(FixTags.ORD_TYPE) == '2') {
                r.orderType = OrderType.LIMIT;
            } else {
                r.orderTypeRefusal = "only limit orders can be replaced (OrdType 2)";
            }
        } else if (msgType == FixMsgTypes.ORDER_MASS_CANCEL_REQUEST) {
            final char type = m.charValue(FixTags.MASS_CANCEL_REQUEST_TYPE);
            if (type == '1' || type == '7') {
                r.allSymbols = type == '7';
            } else {
                r.scopeRefusal = "MassCancelRequestType " + m.stringValue(FixTags.MASS_CANCEL_REQUEST_TYPE)
                    + " is not supported (1 by symbol, 7 all)";
            }
        } else if (msgType == FixMsgTypes.COLLATERAL_INQUIRY) {
            if (m.has(FixTags.ON_BEHALF_OF_COMP_ID)) {
                // Its reports would need a route per report; nothing asks for it yet.
                r.frontEndRefusal = "CollateralInquiry with OnBehalfOfCompID (third-party routing) is not supported";
            } else if (m.has(FixTags.SUBSCRIPTION_REQUEST_TYPE) && m.charValue(FixTags.SUBSCRIPTION_REQUEST_TYPE) != '0') {
                r.frontEndRefusal = "SubscriptionRequestType " + m.stringValue(FixTags.SUBSCRIPTION_REQUEST_TYPE)
                    + " is not supported: a CollateralInquiry is answered once (0, snapshot)";
            }
        }
        return true;
    }

    /** The command an order-entry message asks for. */
    static CommandType type(final int msgType) {
        return switch (msgType) {
            case FixMsgTypes.NEW_ORDER_SINGLE -> CommandType.NEW_ORDER;
            case FixMsgTypes.ORDER_CANCEL_REQUEST -> CommandType.CANCEL;
            case FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST -> CommandType.REPLACE;
            case FixMsgTypes.ORDER_MASS_CANCEL_REQUEST -> CommandType.MASS_CANCEL;
            default -> CommandType.BALANCE;
        };
    }

    private static void side(final FixDecoder m, final OrderRequest r) {
        if (!m.has(FixTags.SIDE)) {
            return;
        }
        final char side = m.charValue(FixTags.SIDE);
        if (side == '1') {
            r.side = Side.BUY;
        } else if (side == '2') {
            r.side = Side.SELL;
        } else {
            r.sideRefusal = "Side " + m.stringValue(FixTags.SIDE) + " is not supported (1 buy, 2 sell)";
        }
    }

    private static void newOrderCodes(final FixDecoder m, final OrderRequest r) {
        final char ordType = m.charValue(FixTags.ORD_TYPE);
        if (ordType == '2') {
            r.orderType = OrderType.LIMIT;
        } else if (ordType == '1') {
            r.orderType = OrderType.MARKET;
        } else {
            r.orderTypeRefusal = "OrdType " + m.stringValue(FixTags.ORD_TYPE) + " is not supported (1 market, 2 limit)";
        }
        final char tif = m.has(FixTags.TIME_IN_FORCE) ? m.charValue(FixTags.TIME_IN_FORCE) : '0';
        switch (tif) {
            case '0' -> r.timeInForce = TimeInForce.DAY;
            case '1' -> r.timeInForce = TimeInForce.GTC;
            case '3' -> r.timeInForce = TimeInForce.IOC;
            case '4' -> r.timeInForce = TimeInForce.FOK;
            default -> r.timeInForceRefusal = "TimeInForce " + m.stringValue(FixTags.TIME_IN_FORCE)
                + " is not supported (0 day, 1 GTC, 3 IOC, 4 FOK)";
        }
        if (m.has(FixTags.EXEC_INST)) {
            // ExecInst 6 (participate, don't initiate) is post-only.
            final int offset = m.valueOffset(FixTags.EXEC_INST);
            for (int i = 0; i < m.valueLength(FixTags.EXEC_INST); i++) {
                if (m.buffer().getByte(offset + i) == '6') {
                    r.postOnly = true;
                }
            }
        }
    }
}
