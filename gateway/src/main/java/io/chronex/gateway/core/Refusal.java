package io.chronex.gateway.core;

/**
 * The codes of the refusals the gateway decides itself. They are FIX's OrdRejReason (103) numbers, which FIX clients
 * read as they are and every other front-end reports beside its text, so one refusal has one code on every way in.
 */
public final class Refusal {
    /** Unknown symbol, or an order that is not a live order of the session. */
    public static final int UNKNOWN = 1;
    /** The same order sent again. */
    public static final int DUPLICATE = 6;
    /** An order type or time in force the exchange does not support. */
    public static final int UNSUPPORTED = 11;
    public static final int INCORRECT_QUANTITY = 13;
    /** An account that is not the session's. */
    public static final int UNKNOWN_ACCOUNT = 15;
    public static final int OTHER = 99;

    private Refusal() {
    }
}
