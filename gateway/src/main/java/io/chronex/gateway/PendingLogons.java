package io.chronex.gateway;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connections that have not logged on yet, oldest first, so that sockets which never send a
 * Logon cannot keep real clients out: one address may hold at most {@code maxPerAddress} of them
 * (a new one from that address evicts its oldest), and when every slot is taken a new connection
 * evicts the oldest of them from any address. A real client sends its Logon at once, so it is
 * never the oldest for long; a flood from one address cannot fill the table and push out others.
 * Used on the accept path only (not the hot path), so it may allocate.
 *
 * @param <C> the connection type (the gateway's {@code Connection}; anything in the tests)
 */
final class PendingLogons<C> {
    private final int maxPerAddress;
    /** Insertion order is accept order: the first entry is the oldest. */
    private final LinkedHashMap<C, InetAddress> pending = new LinkedHashMap<>();
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private String reason;

    PendingLogons(final int maxPerAddress) {
        this.maxPerAddress = maxPerAddress;
    }

    /** A connection accepted from this address, not logged on yet. */
    void add(final C connection, final InetAddress address) {
        pending.put(connection, address);
        perAddress.merge(address, 1, Integer::sum);
    }

    /** The connection logged on or closed: no longer pending (nothing happens if it was not). */
    void remove(final C connection) {
        final InetAddress address = pending.remove(connection);
        if (address != null) {
            perAddress.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
        }
    }

    int size() {
        return pending.size();
    }

    /**
     * Before a connection from {@code address} is taken: the pending connection to evict to make
     * room for it, or null when none needs to go (or none can: every slot logged on). The reason,
     * for the log, is then in {@link #reason()}.
     */
    C evictFor(final InetAddress address, final boolean tableFull) {
        final int fromAddress = perAddress.getOrDefault(address, 0);
        if (fromAddress >= maxPerAddress) {
            reason = "evicted: " + fromAddress + " connections from " + address.getHostAddress()
                + " without a Logon (maxUnauthenticatedPerAddress " + maxPerAddress + "), this the oldest";
            return oldestFrom(address);
        }
        if (tableFull && !pending.isEmpty()) {
            reason = "evicted: every connection slot taken (maxConnections), this the oldest without a Logon, to make room for one"
                + " from " + address.getHostAddress();
            return pending.keySet().iterator().next();
        }
        return null;
    }

    /** Why the last connection {@link #evictFor} returned is to go. */
    String reason() {
        return reason;
    }

    private C oldestFrom(final InetAddress address) {
        final Iterator<Map.Entry<C, InetAddress>> entries = pending.entrySet().iterator();
        while (entries.hasNext()) {
            final Map.Entry<C, InetAddress> e = entries.next();
            if (e.getValue().equals(address)) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("no pending connection from " + address + " although " + perAddress.get(address) + " counted");
    }
}
