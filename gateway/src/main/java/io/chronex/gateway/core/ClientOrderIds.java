package io.chronex.gateway.core;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * FIX ClOrdID text to the engine's {@code long} client order id, with no state: a 64-bit hash of
 * the text. The same text always gives the same id, in every process and after every restart, so
 * a cancel by OrigClOrdID needs no lookup; the way back (id to text, for reports) is the
 * {@link ClOrdIdTable}. This function is part of the journal's meaning: changing it would change
 * what every journalled id stands for, so it never changes (the text is journalled too).
 */
public final class ClientOrderIds {
    /** Longest ClOrdID accepted, in characters. */
    public static final int MAX_LENGTH = 64;
    public static final String RULE = "ClOrdID and OrigClOrdID must be 1..64 printable ASCII characters (0x21..0x7E: no spaces,"
        + " no control characters)";
    private static final long FNV_OFFSET = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    private ClientOrderIds() {
    }

    /**
     * Whether a ClOrdID follows {@link #RULE}. Space is left out although FIX allows it: an id is a
     * key, and a space is invisible at the end of a log line or audit field and trimmed by many
     * systems, so two different ids would look the same to the people reading them.
     */
    public static boolean valid(final DirectBuffer buffer, final int offset, final int length) {
        if (length < 1 || length > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < 0x21 || b > 0x7E) {
                return false;
            }
        }
        return true;
    }

    /**
     * The engine's id for a ClOrdID: FNV-1a over the bytes and the length, then MurmurHash3's
     * 64-bit finaliser so every input bit reaches every output bit; never 0 (the engine's "none").
     */
    public static long hash(final DirectBuffer buffer, final int offset, final int length) {
        long h = FNV_OFFSET;
        for (int i = 0; i < length; i++) {
            h = (h ^ (buffer.getByte(offset + i) & 0xFF)) * FNV_PRIME;
        }
        h = (h ^ length) * FNV_PRIME;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }

    /** For tests and tools; allocates. */
    public static long hash(final String text) {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return hash(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    /**
     * The text a report carries for an id whose ClOrdID text is not known (an order put in by
     * another tool, such as bin/inject, which has no text): the engine's id in decimal. Returns its length.
     */
    public static int decimal(final long id, final byte[] dst) {
        long v = id;
        int length = 0;
        if (v < 0) {
            dst[length++] = '-';
        }
        final int digitsFrom = length;
        do {
            dst[length++] = (byte) ('0' + Math.abs(v % 10));
            v /= 10;
        } while (v != 0);
        for (int i = digitsFrom, j = length - 1; i < j; i++, j--) {
            final byte t = dst[i];
            dst[i] = dst[j];
            dst[j] = t;
        }
        return length;
    }
}
