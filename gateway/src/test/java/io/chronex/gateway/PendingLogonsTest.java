package io.chronex.gateway;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which connection not yet logged on is evicted, and why, without sockets. */
class PendingLogonsTest {
    private static final InetAddress A = address(2);
    private static final InetAddress B = address(3);

    @Test
    void anAddressAtItsLimitGivesUpItsOwnOldest() {
        final PendingLogons<String> pending = new PendingLogons<>(2);
        pending.add("b1", B);
        pending.add("a1", A);
        pending.add("a2", A);
        assertEquals("a1", pending.evictFor(A, false), "the oldest from A, not the older one from B");
        assertTrue(pending.reason().startsWith("evicted: 2 connections from 127.0.0.2 without a Logon"), pending.reason());
        assertNull(pending.evictFor(B, false), "B is under its limit and the table has room");
    }

    @Test
    void aFullTableGivesUpTheOldestFromAnyAddressAndLoggedOnConnectionsAreNeverCandidates() {
        final PendingLogons<String> pending = new PendingLogons<>(8);
        pending.add("a1", A);
        pending.add("b1", B);
        pending.remove("a1"); // logged on
        assertEquals("b1", pending.evictFor(A, true));
        assertTrue(pending.reason().startsWith("evicted: every connection slot taken"), pending.reason());
        pending.remove("b1");
        assertNull(pending.evictFor(A, true), "every slot logged on: nothing to evict (the new connection is refused)");
        assertEquals(0, pending.size());
    }

    private static InetAddress address(final int last) {
        try {
            return InetAddress.getByAddress(new byte[]{127, 0, 0, (byte) last});
        } catch (final java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
