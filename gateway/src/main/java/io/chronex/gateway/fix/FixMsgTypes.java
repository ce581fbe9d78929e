package io.chronex.gateway.fix;

/**
 * MsgType (35) values packed into an int: the first character in the low byte, a second one (as in
 * "AE") in the next byte, so a message type compares and switches as a number.
 */
public final class FixMsgTypes {
    public static final int HEARTBEAT = '0';
    public static final int TEST_REQUEST = '1';
    public static final int RESEND_REQUEST = '2';
    public static final int REJECT = '3';
    public static final int SEQUENCE_RESET = '4';
    public static final int LOGOUT = '5';
    public static final int EXECUTION_REPORT = '8';
    public static final int ORDER_CANCEL_REJECT = '9';
    public static final int LOGON = 'A';
    public static final int NEW_ORDER_SINGLE = 'D';
    public static final int ORDER_CANCEL_REQUEST = 'F';
    public static final int ORDER_CANCEL_REPLACE_REQUEST = 'G';
    public static final int BUSINESS_MESSAGE_REJECT = 'j';
    public static final int ORDER_MASS_CANCEL_REQUEST = 'q';
    public static final int ORDER_MASS_CANCEL_REPORT = 'r';
    public static final int MARKET_DATA_REQUEST = 'V';
    public static final int MARKET_DATA_SNAPSHOT_FULL_REFRESH = 'W';
    public static final int MARKET_DATA_INCREMENTAL_REFRESH = 'X';
    public static final int MARKET_DATA_REQUEST_REJECT = 'Y';
    public static final int SECURITY_STATUS = 'f';
    public static final int COLLATERAL_REPORT = 'B' | 'A' << 8;
    public static final int COLLATERAL_INQUIRY = 'B' | 'B' << 8;
    public static final int COLLATERAL_INQUIRY_ACK = 'B' | 'G' << 8;

    private FixMsgTypes() {
    }

    /** Packs one or two characters. */
    public static int of(final String type) {
        return type.length() == 1 ? type.charAt(0) : type.charAt(0) | type.charAt(1) << 8;
    }
}
