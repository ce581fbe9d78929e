package io.chronex.gateway;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows down guessing: failed logons (an unknown SenderCompID, a wrong password) are counted per SenderCompID and per
 * address, and after {@link #FREE_FAILURES} in a row each further attempt from that CompID or address is refused unheard for
 * an exponentially growing time (1 s, 2 s, 4 s, ... up to {@link #MAX_BLOCK_NANOS}); a successful logon clears both counts.
 * Refusals during a block get the same answer as any other credential failure, so they tell a guesser nothing. Addresses
 * are kept in a bounded map (the least recently failed forgotten first), so a flood of addresses cannot grow it without end;
 * only configured CompIDs are counted, for the same reason. One thread (the gateway's) uses it.
 */
final class LogonGuard {
    /** Failures in a row that cost nothing: a person who mistypes a password once or twice is not slowed down. */
    static final int FREE_FAILURES = 3;
    static final long FIRST_BLOCK_NANOS = 1_000_000_000L;
    /** The longest block: 5 minutes, about 25 further guesses an hour once reached. */
    static final long MAX_BLOCK_NANOS = 300_000_000_000L;
    /** Addresses remembered at most. */
    static final int MAX_ADDRESSES = 10_000;

    /** Failures in a row and when the current block ends. */
    private static final class Record {
        int failures;
        long blockedUntilNanos;
    }

    private final Map<String, Record> byCompId = new LinkedHashMap<>();
    private final Map<String, Record> byAddress = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Record> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    /** Whether a logon for this configured CompID (null: not one) from this address is refused unheard now. */
    boolean blocked(final String compId, final String address, final long nowNanos) {
        return blockedBy(compId == null ? null : byCompId.get(compId), nowNanos) || blockedBy(byAddress.get(address), nowNanos);
    }

    /** How long until a logon for this CompID from this address is heard again (0: now). */
    long blockedForNanos(final String compId, final String address, final long nowNanos) {
        final Record c = compId == null ? null : byCompId.get(compId);
        final Record a = byAddress.get(address);
        final long forCompId = c == null ? 0 : c.blockedUntilNanos - nowNanos;
        final long forAddress = a == null ? 0 : a.blockedUntilNanos - nowNanos;
        return Math.max(0, Math.max(forCompId, forAddress));
    }

    private static boolean blockedBy(final Record r, final long nowNanos) {
        return r != null && r.blockedUntilNanos - nowNanos > 0;
    }

    /** A credential failure: counted for the CompID (when configured, else null) and the address. */
    void failed(final String compId, final String address, final long nowNanos) {
        if (compId != null) {
            fail(byCompId.computeIfAbsent(compId, k -> new Record()), nowNanos);
        }
        fail(byAddress.computeIfAbsent(address, k -> new Record()), nowNanos);
    }

    private static void fail(final Record r, final long nowNanos) {
        r.failures++;
        if (r.failures > FREE_FAILURES) {
            final int doublings = Math.min(r.failures - FREE_FAILURES - 1, 30);
            r.blockedUntilNanos = nowNanos + Math.min(MAX_BLOCK_NANOS, FIRST_BLOCK_NANOS << doublings);
        }
    }

    /** A logon accepted: the CompID and the address start afresh. */
    void succeeded(final String compId, final String address) {
        byCompId.remove(compId);
        byAddress.remove(address);
    }

    /** Failures in a row counted for a CompID (tests and the log). */
    int failures(final String compId) {
        final Record r = byCompId.get(compId);
        return r == null ? 0 : r.failures;
    }
}
