package io.chronex.gateway.core;

import io.chronex.api.CommandType;
import io.chronex.api.Result;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

/**
 * The ClOrdIDs of the last {@link #CAPACITY} new orders this gateway's sessions sent (as the
 * engine's id, a hash of the text, with the account), so that a NewOrderSingle arriving again with
 * PossDupFlag=Y is recognised and not executed twice. It is rebuilt at start from the events
 * already answered plus the results still to come, and kept up to date as orders are journalled;
 * fixed size and pre-sized, so it allocates nothing while running.
 */
public final class ReceivedOrderIds {
    /** How many recent new orders are remembered; the oldest is forgotten first. */
    public static final int CAPACITY = 1 << 18;

    /** Sized so that CAPACITY keys stay under its resize threshold (capacity x load factor): it never rehashes. */
    private final LongHashSet keys = new LongHashSet(CAPACITY * 2, 0.65f);
    private final long[] ring = new long[CAPACITY];
    private int next;
    private int size;

    /** Remembers a new order's id; the oldest is forgotten once {@link #CAPACITY} are held. */
    public void add(final long account, final long clientOrderId) {
        final long key = key(account, clientOrderId);
        if (keys.contains(key)) {
            return;
        }
        if (size == CAPACITY) {
            keys.remove(ring[next]);
        } else {
            size++;
        }
        ring[next] = key;
        next = (next + 1) & (CAPACITY - 1);
        keys.add(key);
    }

    /** The answer to a new order from one of this gateway's sessions (sessions by account) is remembered; others are not. */
    public void remember(final Result r, final Long2ObjectHashMap<?> sessionsByAccount) {
        if (r.commandType == CommandType.NEW_ORDER && r.clientOrderId != 0 && sessionsByAccount.containsKey(r.account)) {
            add(r.account, r.clientOrderId);
        }
    }

    /** The bytes {@link #writeTo} writes. */
    public int bytes() {
        return Integer.BYTES + Long.BYTES * size;
    }

    /** The ids held, oldest first, for a checkpoint ({@link GatewayCheckpoint}): at most two bulk copies of the ring. */
    public void writeTo(final java.nio.ByteBuffer out) {
        out.putInt(size);
        final int oldest = (next - size) & (CAPACITY - 1);
        final int first = Math.min(size, CAPACITY - oldest);
        final java.nio.LongBuffer longs = out.asLongBuffer();
        longs.put(ring, oldest, first).put(ring, 0, size - first);
        out.position(out.position() + Long.BYTES * size);
    }

    /** Becomes what {@link #writeTo} wrote. */
    public void readFrom(final java.nio.ByteBuffer in) {
        final int count = in.getInt();
        if (count < 0 || count > CAPACITY) {
            throw new IllegalArgumentException("received order ids: " + count + " cannot be");
        }
        keys.clear();
        size = 0;
        next = 0;
        for (int i = 0; i < count; i++) {
            final long key = in.getLong();
            ring[next] = key;
            next = (next + 1) & (CAPACITY - 1);
            size++;
            keys.add(key);
        }
    }

    public boolean contains(final long account, final long clientOrderId) {
        return keys.contains(key(account, clientOrderId));
    }

    private static long key(final long account, final long clientOrderId) {
        return clientOrderId ^ (account * 0x9E3779B97F4A7C15L);
    }
}
