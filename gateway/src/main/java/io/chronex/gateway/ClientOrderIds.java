package io.chronex.gateway;

import org.agrona.DirectBuffer;

/**
 * FIX ClOrdID text to the engine's {@code long} client order id and back, with no table: a
 * decimal number of 1..18 digits without a leading zero is itself (top bit clear); anything else
 * of 1..9 printable ASCII characters is packed seven bits a character behind a set top bit. So
 * the mapping survives restarts of every process and needs no state, and every id a client can
 * use round-trips exactly. Other ClOrdIDs are refused at the gateway with a clear reason.
 */
public final class ClientOrderIds {
    /** Returned by {@link #encode} for a ClOrdID that does not fit. */
    public static final long INVALID = 0;
    public static final String RULE = "ClOrdID must be a number of 1..18 digits (no leading zero) or 1..9 printable ASCII characters";
    private static final int MAX_DIGITS = 18;
    private static final int MAX_CHARS = 9;

    private ClientOrderIds() {
    }

    public static long encode(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1) {
            return INVALID;
        }
        if (length <= MAX_DIGITS && buffer.getByte(offset) != '0') {
            long value = 0;
            int i = 0;
            for (; i < length; i++) {
                final int b = buffer.getByte(offset + i);
                if (b < '0' || b > '9') {
                    break;
                }
                value = value * 10 + (b - '0');
            }
            if (i == length) {
                return value;
            }
        }
        if (length > MAX_CHARS) {
            return INVALID;
        }
        long packed = 0;
        for (int i = 0; i < MAX_CHARS; i++) {
            int c = 0;
            if (i < length) {
                c = buffer.getByte(offset + i);
                if (c < 0x21 || c > 0x7E) {
                    return INVALID;
                }
            }
            packed = (packed << 7) | c;
        }
        return packed | Long.MIN_VALUE;
    }

    /** Writes the ClOrdID text of an id into dst (at least 19 bytes) and returns its length; 0 for id 0. */
    public static int decode(final long id, final byte[] dst) {
        if (id == 0) {
            return 0;
        }
        if (id > 0) {
            int length = 0;
            for (long v = id; v > 0; v /= 10) {
                length++;
            }
            long v = id;
            for (int i = length - 1; i >= 0; i--) {
                dst[i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            return length;
        }
        int length = 0;
        for (int i = MAX_CHARS - 1; i >= 0; i--) {
            final int c = (int) (id >>> (7 * i)) & 0x7F;
            if (c == 0) {
                break;
            }
            dst[length++] = (byte) c;
        }
        return length;
    }

    /** For logs and tests. */
    public static String toString(final long id) {
        final byte[] text = new byte[20];
        return new String(text, 0, decode(id, text), java.nio.charset.StandardCharsets.US_ASCII);
    }
}
