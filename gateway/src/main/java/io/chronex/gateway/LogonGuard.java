package io.chronex.gateway;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows down guessing. Failed logons (an unknown SenderCompID, a wrong password) are counted per client address and per
 * configured SenderCompID; after {@link #FREE_FAILURES} in a row, each further attempt is refused unheard for an
 * exponentially growing time (1 s, 2 s, 4 s, ... up to {@link #MAX_BLOCK_NANOS}):
 * <ul>
 *   <li>from that address, whatever the CompID; a success does not clear an address's count (one working login must not
 *   buy an attacker fresh guesses), it is forgotten after {@link #FORGET_AFTER_NANOS} without a failure;</li>
 *   <li>for that CompID, from any address that has never logged on as it, so guessing one firm's password from many
 *   addresses is slowed while the firm's own addresses still get in (a CompID-wide block would let anyone lock a firm out
 *   with a few packets).</li>
 * </ul>
 * An attempt refused unheard counts against its address like any failure, whether the CompID exists or not, so the blocks
 * an attacker can observe (through a login of its own) do not tell which CompIDs exist. IPv6 clients are counted by their
 * /64, which one subscriber holds whole. Addresses are kept in a bounded map (the least recently failed forgotten first),
 * and only configured CompIDs are counted, so neither many addresses nor random CompIDs grow it. One thread (the
 * gateway's) uses it. docs/gateway.md, "Logon failures".
 */
final class LogonGuard {
    /** Failures in a row that cost nothing: a person who mistypes a password once or twice is not slowed down. */
    static final int FREE_FAILURES = 3;
    static final long FIRST_BLOCK_NANOS = 1_000_000_000L;
    /** The longest block: 5 minutes, about a dozen further guesses an hour once reached. */
    static final long MAX_BLOCK_NANOS = 300_000_000_000L;
    /** A count with no failure for this long starts again from zero. */
    static final long FORGET_AFTER_NANOS = 900_000_000_000L;
    /** Addresses remembered at most. */
    static final int MAX_ADDRESSES = 10_000;
    /** Addresses remembered per CompID as ones it logged on from. */
    static final int GOOD_ADDRESSES = 16;

    /** Failures in a row, the last one's time, and when the current block ends. */
    private static final class Record {
        int failures;
        long lastFailureNanos;
        long blockedUntilNanos;
        /** For a CompID: addresses it logged on from, newest last. */
        final Deque<String> good = new ArrayDeque<>();
    }

    private final Map<String, Record> byCompId = new HashMap<>();
    /** In order of the last failure (insertion order, re-inserted on each failure): the eldest is the least recently failed. */
    private final Map<String, Record> byAddress = new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Record> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    /** What an address is counted by: the IPv4 address, or an IPv6 address's /64. */
    static String addressKey(final InetAddress address) {
        if (address instanceof Inet6Address) {
            final byte[] b = address.getAddress();
            final StringBuilder key = new StringBuilder(24);
            for (int i = 0; i < 8; i += 2) {
                key.append(Integer.toHexString(((b[i] & 0xff) << 8) | (b[i + 1] & 0xff))).append(':');
            }
            return key.append(":/64").toString();
        }
        return address.getHostAddress();
    }

    /** Whether a logon for this configured CompID (null: not one) from this address key is refused unheard now. */
    boolean blocked(final String compId, final String address, final long nowNanos) {
        return blockedForNanos(compId, address, nowNanos) > 0;
    }

    /** How long until a logon for this CompID from this address is heard again (0: now). */
    long blockedForNanos(final String compId, final String address, final long nowNanos) {
        final Record a = byAddress.get(address);
        long wait = a == null ? 0 : a.blockedUntilNanos - nowNanos;
        final Record c = compId == null ? null : byCompId.get(compId);
        if (c != null && !c.good.contains(address)) {
            wait = Math.max(wait, c.blockedUntilNanos - nowNanos);
        }
        return Math.max(0, wait);
    }

    /** A credential failure, or an attempt refused unheard: counted for the address, and for the CompID when configured. */
    void failed(final String compId, final String address, final long nowNanos) {
        if (compId != null) {
            fail(byCompId.computeIfAbsent(compId, k -> new Record()), nowNanos);
        }
        Record a = byAddress.remove(address);
        if (a == null) {
            a = new Record();
        }
        fail(a, nowNanos);
        byAddress.put(address, a); // to the end: the most recently failed
    }

    private static void fail(final Record r, final long nowNanos) {
        if (r.failures > 0 && nowNanos - r.lastFailureNanos > FORGET_AFTER_NANOS) {
            r.failures = 0;
        }
        r.failures++;
        r.lastFailureNanos = nowNanos;
        if (r.failures > FREE_FAILURES) {
            final int doublings = Math.min(r.failures - FREE_FAILURES - 1, 30);
            r.blockedUntilNanos = Math.max(r.blockedUntilNanos, nowNanos + Math.min(MAX_BLOCK_NANOS, FIRST_BLOCK_NANOS << doublings));
        }
    }

    /** A logon accepted: its address becomes one the CompID may always log on from (the address's own count stays). */
    void succeeded(final String compId, final String address) {
        final Record c = byCompId.computeIfAbsent(compId, k -> new Record());
        c.good.remove(address);
        c.good.addLast(address);
        if (c.good.size() > GOOD_ADDRESSES) {
            c.good.removeFirst();
        }
    }

    /**
     * The operator's lift (docs/gateway.md, "Logon failures"): each line {@code all}, {@code address IP} or {@code compid NAME}
     * clears those counts and blocks. Returns what was lifted, or what could not be, in words for the log.
     */
    String lift(final Iterable<String> lines) {
        final StringBuilder said = new StringBuilder();
        for (final String raw : lines) {
            final String line = raw.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] words = line.split("\\s+");
            final String did;
            if (words.length == 1 && words[0].equals("all")) {
                byAddress.clear();
                byCompId.values().forEach(r -> {
                    r.failures = 0;
                    r.blockedUntilNanos = 0;
                });
                did = "every block lifted";
            } else if (words.length == 2 && words[0].equals("address")) {
                did = liftAddress(words[1]);
            } else if (words.length == 2 && words[0].equals("compid")) {
                final Record r = byCompId.get(words[1]);
                if (r != null) {
                    r.failures = 0;
                    r.blockedUntilNanos = 0;
                }
                did = "CompID " + words[1] + (r == null ? ": no failures counted" : ": lifted");
            } else {
                did = "not understood: '" + line + "' (all, address IP, compid NAME)";
            }
            said.append(said.length() == 0 ? "" : "; ").append(did);
        }
        return said.length() == 0 ? "nothing to lift" : said.toString();
    }

    private String liftAddress(final String ip) {
        if (!ip.matches("[0-9a-fA-F:.]+")) {
            return "address " + ip + ": not an IP address";
        }
        try {
            final String key = addressKey(InetAddress.getByName(ip)); // a literal: no name lookup
            return "address " + ip + (byAddress.remove(key) == null ? ": no failures counted" : ": lifted");
        } catch (final java.net.UnknownHostException e) {
            return "address " + ip + ": not an IP address";
        }
    }

    /** Failures in a row counted for a CompID (tests and the log). */
    int failures(final String compId) {
        final Record r = byCompId.get(compId);
        return r == null ? 0 : r.failures;
    }
}
