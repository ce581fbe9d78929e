package io.chronex.gateway.core;

import org.agrona.DirectBuffer;

/**
 * Numbers as clients write them (ASCII decimal text in a buffer) turned into the engine's integers exactly, or refused:
 * a price or quantity is never rounded. Shared by every protocol that carries numbers as text (FIX, JSON).
 */
public final class Decimals {
    /** The field is not there. */
    public static final long MISSING = Long.MIN_VALUE;
    /** Not a decimal number, or too large for a long at the scale asked. */
    public static final long MALFORMED = Long.MIN_VALUE + 1;
    /** A non-zero digit beyond the decimals asked: the value is not on the grid. */
    public static final long NOT_EXACT = Long.MIN_VALUE + 2;

    private static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private Decimals() {
    }

    /**
     * The decimal text at offset times 10^decimals when that is a whole number: "100.05" at 2 is 10005; else
     * {@link #MALFORMED} or {@link #NOT_EXACT}. An optional leading '-'; no exponent, no '+', no spaces.
     */
    public static long scaled(final DirectBuffer buffer, final int offset, final int length, final int decimals) {
        if (decimals < 0 || decimals > 18 || length <= 0) {
            return MALFORMED;
        }
        int position = offset;
        final int end = offset + length;
        boolean negative = false;
        if (buffer.getByte(position) == '-') {
            negative = true;
            position++;
        }
        long value = 0;
        int digits = 0;
        boolean point = false;
        int fraction = 0;
        boolean inexact = false;
        for (; position < end; position++) {
            final byte b = buffer.getByte(position);
            if (b == '.') {
                if (point) {
                    return MALFORMED;
                }
                point = true;
                continue;
            }
            if (b < '0' || b > '9') {
                return MALFORMED;
            }
            digits++;
            if (point && fraction >= decimals) {
                if (b != '0') {
                    inexact = true;
                }
                continue;
            }
            if (point) {
                fraction++;
            }
            if (value > (Long.MAX_VALUE - 9) / 10) {
                return MALFORMED;
            }
            value = value * 10 + (b - '0');
        }
        if (digits == 0) {
            return MALFORMED;
        }
        if (inexact) {
            return NOT_EXACT;
        }
        final long scale = POWERS[decimals - fraction];
        if (value > Long.MAX_VALUE / scale) {
            return MALFORMED;
        }
        value *= scale;
        return negative ? -value : value;
    }

    /** A whole number of at most 18 digits with an optional leading '-', or {@link Long#MIN_VALUE} when it is not one. */
    public static long whole(final DirectBuffer buffer, final int offset, final int length) {
        int position = offset;
        final int end = offset + length;
        if (length <= 0) {
            return Long.MIN_VALUE;
        }
        boolean negative = false;
        if (buffer.getByte(position) == '-') {
            negative = true;
            position++;
        }
        if (position == end || end - position > 18) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; position < end; position++) {
            final byte b = buffer.getByte(position);
            if (b < '0' || b > '9') {
                return Long.MIN_VALUE;
            }
            value = value * 10 + (b - '0');
        }
        return negative ? -value : value;
    }
}
