package io.chronex.gateway.core;

/** The text fields of an order-entry request that the core reads, whatever protocol carried them. */
public enum RequestField {
    /** The request's own client order id (a new order's id, a cancel's or replace's request id). */
    CL_ORD_ID,
    /** The order a cancel or replace is for. */
    ORIG_CL_ORD_ID,
    SYMBOL,
    /** A whole number of units. */
    ORDER_QTY,
    /** A decimal price in the symbol's price scale. */
    PRICE,
    /** The account the client names, if it names one: it must be the session's. */
    ACCOUNT,
    /** A balance inquiry's own id. */
    INQUIRY_ID,
    /** The asset a balance inquiry asks about (all assets without it). */
    CURRENCY;

    static final int COUNT = values().length;
}
