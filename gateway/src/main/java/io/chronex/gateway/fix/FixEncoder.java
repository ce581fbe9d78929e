package io.chronex.gateway.fix;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes one FIX 4.4 message at a time into a buffer with no allocation. The body is written from
 * {@code offset + RESERVED} (32 bytes); {@link #finish} then puts BeginString and the exact BodyLength right before
 * it and the CheckSum after it, so the message starts at {@link #messageOffset()}, somewhere in the
 * reserved bytes. Callers add the header fields (49, 56, 34, 52, ...) first, in that order.
 */
public final class FixEncoder {
    private static final int RESERVED = 32;
    private static final byte SOH = 1;
    private static final byte[] BEGIN = {'8', '=', 'F', 'I', 'X', '.', '4', '.', '4', SOH, '9', '='};
    private static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private final MutableDirectBuffer buffer;
    private int bodyStart;
    private int position;
    private int messageOffset;

    public FixEncoder(final MutableDirectBuffer buffer) {
        this.buffer = buffer;
    }

    /** Starts a message whose reserved prefix begins at offset; writes MsgType (35). */
    public FixEncoder start(final int offset, final int msgType) {
        bodyStart = offset + RESERVED;
        position = bodyStart;
        tag(FixTags.MSG_TYPE);
        buffer.putByte(position++, (byte) (msgType & 0xFF));
        if ((msgType >>> 8) != 0) {
            buffer.putByte(position++, (byte) ((msgType >>> 8) & 0xFF));
        }
        buffer.putByte(position++, SOH);
        return this;
    }

    public FixEncoder addLong(final int tag, final long value) {
        tag(tag);
        long v = value;
        if (v < 0) {
            buffer.putByte(position++, (byte) '-');
            if (v == Long.MIN_VALUE) {
                // cannot be negated; no FIX field of ours carries it
                v = Long.MAX_VALUE;
            } else {
                v = -v;
            }
        }
        natural(v);
        buffer.putByte(position++, SOH);
        return this;
    }

    public FixEncoder addChar(final int tag, final char value) {
        tag(tag);
        buffer.putByte(position++, (byte) value);
        buffer.putByte(position++, SOH);
        return this;
    }

    public FixEncoder addBoolean(final int tag, final boolean value) {
        return addChar(tag, value ? 'Y' : 'N');
    }

    public FixEncoder addAscii(final int tag, final byte[] ascii) {
        return addAscii(tag, ascii, ascii.length);
    }

    public FixEncoder addAscii(final int tag, final byte[] ascii, final int length) {
        tag(tag);
        buffer.putBytes(position, ascii, 0, length);
        position += length;
        buffer.putByte(position++, SOH);
        return this;
    }

    /** Characters outside printable ASCII (SOH included) are written as '?', so a text can never break the framing. */
    public FixEncoder addAscii(final int tag, final CharSequence text) {
        tag(tag);
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            buffer.putByte(position++, (byte) (c >= ' ' && c <= '~' ? c : '?'));
        }
        buffer.putByte(position++, SOH);
        return this;
    }

    public FixEncoder addBytes(final int tag, final DirectBuffer src, final int offset, final int length) {
        tag(tag);
        buffer.putBytes(position, src, offset, length);
        position += length;
        buffer.putByte(position++, SOH);
        return this;
    }

    /** scaled / 10^decimals as a decimal, trailing zeros of the fraction dropped: (10005, 2) is "100.05", (10000, 2) is "100". */
    public FixEncoder addDecimal(final int tag, final long scaled, final int decimals) {
        tag(tag);
        long v = scaled;
        if (v < 0) {
            buffer.putByte(position++, (byte) '-');
            v = -v;
        }
        if (decimals <= 0 || decimals > 18) {
            natural(v);
        } else {
            final long scale = POWERS[decimals];
            natural(v / scale);
            long fraction = v % scale;
            if (fraction != 0) {
                int digits = decimals;
                while (fraction % 10 == 0) {
                    fraction /= 10;
                    digits--;
                }
                buffer.putByte(position++, (byte) '.');
                for (int i = digits - 1; i >= 0; i--) {
                    buffer.putByte(position + i, (byte) ('0' + fraction % 10));
                    fraction /= 10;
                }
                position += digits;
            }
        }
        buffer.putByte(position++, SOH);
        return this;
    }

    /**
     * scaled / 10^decimals with every one of the decimals written, as money is written ((100010, 2) is "1000.10",
     * (0, 2) is "0.00"): an amount reads in its asset's units, unlike {@link #addDecimal}, which drops trailing zeros.
     */
    public FixEncoder addAmount(final int tag, final long scaled, final int decimals) {
        if (decimals <= 0 || decimals > 18) {
            return addLong(tag, scaled);
        }
        tag(tag);
        long v = scaled;
        if (v < 0) {
            buffer.putByte(position++, (byte) '-');
            v = -v;
        }
        final long scale = POWERS[decimals];
        natural(v / scale);
        long fraction = v % scale;
        buffer.putByte(position++, (byte) '.');
        for (int i = decimals - 1; i >= 0; i--) {
            buffer.putByte(position + i, (byte) ('0' + fraction % 10));
            fraction /= 10;
        }
        position += decimals;
        buffer.putByte(position++, SOH);
        return this;
    }

    /** UTCTimestamp with milliseconds: YYYYMMDD-HH:MM:SS.sss. */
    public FixEncoder addUtcTimestamp(final int tag, final long epochMillis) {
        tag(tag);
        final long days = Math.floorDiv(epochMillis, 86_400_000L);
        final long msOfDay = Math.floorMod(epochMillis, 86_400_000L);
        final int date = Dates.civilFromDays(days);
        fixed(date, 8);
        buffer.putByte(position++, (byte) '-');
        fixed((int) (msOfDay / 3_600_000L), 2);
        buffer.putByte(position++, (byte) ':');
        fixed((int) (msOfDay / 60_000L % 60), 2);
        buffer.putByte(position++, (byte) ':');
        fixed((int) (msOfDay / 1000 % 60), 2);
        buffer.putByte(position++, (byte) '.');
        fixed((int) (msOfDay % 1000), 3);
        buffer.putByte(position++, SOH);
        return this;
    }

    /** Writes BeginString, BodyLength and CheckSum; returns the message's total length. */
    public int finish() {
        final int bodyLength = position - bodyStart;
        int lengthDigits = 1;
        for (int v = bodyLength; v >= 10; v /= 10) {
            lengthDigits++;
        }
        messageOffset = bodyStart - BEGIN.length - lengthDigits - 1;
        buffer.putBytes(messageOffset, BEGIN);
        int at = bodyStart - 2;
        for (int v = bodyLength, i = 0; i < lengthDigits; i++, v /= 10) {
            buffer.putByte(at--, (byte) ('0' + v % 10));
        }
        buffer.putByte(bodyStart - 1, SOH);
        int sum = 0;
        for (int i = messageOffset; i < position; i++) {
            sum += buffer.getByte(i) & 0xFF;
        }
        sum &= 0xFF;
        buffer.putByte(position++, (byte) '1');
        buffer.putByte(position++, (byte) '0');
        buffer.putByte(position++, (byte) '=');
        fixed(sum, 3);
        buffer.putByte(position++, SOH);
        return position - messageOffset;
    }

    /** Where the last finished message starts. */
    public int messageOffset() {
        return messageOffset;
    }

    private void tag(final int tag) {
        natural(tag);
        buffer.putByte(position++, (byte) '=');
    }

    private void natural(final long value) {
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        long v = value;
        for (int i = digits - 1; i >= 0; i--) {
            buffer.putByte(position + i, (byte) ('0' + v % 10));
            v /= 10;
        }
        position += digits;
    }

    private void fixed(final int value, final int width) {
        int v = value;
        for (int i = width - 1; i >= 0; i--) {
            buffer.putByte(position + i, (byte) ('0' + v % 10));
            v /= 10;
        }
        position += width;
    }
}
