package io.chronex.gateway;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The back-off failed logons earn, on a clock the test moves: free failures, doubling blocks, the cap; an address's count
 * that a success does not clear and time does; a CompID blocked only from addresses it never logged on from; IPv6 by /64;
 * a bounded address map.
 */
class LogonGuardTest {
    private static final long SECOND = 1_000_000_000L;
    private final LogonGuard guard = new LogonGuard();

    @Test
    void threeFailuresAreFreeThenEachBlockDoublesUpToTheCap() {
        long now = 0;
        for (int i = 0; i < LogonGuard.FREE_FAILURES; i++) {
            guard.failed("ALICE", "10.0.0.1", now);
            assertFalse(guard.blocked("ALICE", "10.0.0.1", now), "failure " + (i + 1) + " is free");
        }
        long expectedBlock = SECOND;
        for (int i = 0; i < 12; i++) {
            guard.failed("ALICE", "10.0.0.1", now);
            assertEquals(Math.min(expectedBlock, LogonGuard.MAX_BLOCK_NANOS), guard.blockedForNanos("ALICE", "10.0.0.1", now));
            assertTrue(guard.blocked("BOB", "10.0.0.1", now + 1), "the address is blocked for any CompID");
            assertTrue(guard.blocked("ALICE", "10.0.0.2", now + 1), "ALICE from an address it never logged on from");
            assertFalse(guard.blocked("BOB", "10.0.0.2", now + 1), "others are not");
            now += guard.blockedForNanos("ALICE", "10.0.0.1", now);
            assertFalse(guard.blocked("ALICE", "10.0.0.1", now), "heard again when the block ends");
            expectedBlock *= 2;
        }
        assertEquals(300 * SECOND, LogonGuard.MAX_BLOCK_NANOS);
    }

    @Test
    void aSuccessDoesNotBuyTheAddressFreshGuessesButTimeDoes() {
        for (int i = 0; i < LogonGuard.FREE_FAILURES; i++) {
            guard.failed("ALICE", "10.0.0.1", 0);
        }
        guard.succeeded("MALLORY", "10.0.0.1"); // the attacker's own working login
        guard.failed("ALICE", "10.0.0.1", 1);
        assertTrue(guard.blocked("MALLORY", "10.0.0.1", 2), "the fourth failure blocks the address all the same");
        final long later = 2 + LogonGuard.FORGET_AFTER_NANOS + LogonGuard.MAX_BLOCK_NANOS;
        guard.failed(null, "10.0.0.1", later);
        assertFalse(guard.blocked(null, "10.0.0.1", later), "a quarter of an hour without a failure: counted from zero again");
    }

    @Test
    void aCompIdIsBlockedOnlyFromAddressesItNeverLoggedOnFrom() {
        guard.succeeded("ALICE", "10.0.0.1");
        for (int a = 0; a <= LogonGuard.FREE_FAILURES; a++) {
            guard.failed("ALICE", "192.0.2." + a, 0); // a guesser from four addresses, one try each
        }
        assertTrue(guard.blocked("ALICE", "192.0.2.99", 1), "from a new address: blocked");
        assertFalse(guard.blocked("ALICE", "10.0.0.1", 1), "from the firm's own address: heard, so nobody can lock it out");
        assertFalse(guard.blocked("BOB", "192.0.2.99", 1));
    }

    @Test
    void unknownCompIdsCountOnlyAgainstTheAddress() {
        for (int i = 0; i <= LogonGuard.FREE_FAILURES; i++) {
            guard.failed(null, "10.0.0.9", 0);
        }
        assertTrue(guard.blocked(null, "10.0.0.9", 1));
        assertTrue(guard.blocked("ALICE", "10.0.0.9", 1));
        assertFalse(guard.blocked("ALICE", "10.0.0.8", 1));
    }

    @Test
    void theOperatorLiftsBlocksByAddressCompIdOrAll() {
        for (int i = 0; i <= LogonGuard.FREE_FAILURES; i++) {
            guard.failed("ALICE", "192.0.2.1", 0);
            guard.failed(null, "192.0.2.2", 0);
        }
        assertTrue(guard.blocked("ALICE", "192.0.2.3", 1));
        assertEquals("address 192.0.2.2: lifted; address 192.0.2.9: no failures counted; not understood: 'please' (all, address IP,"
            + " compid NAME); address evil.example: not an IP address", guard.lift(java.util.List.of("address 192.0.2.2", "# comment",
            "address 192.0.2.9", "please", "address evil.example")));
        assertFalse(guard.blocked(null, "192.0.2.2", 1));
        assertTrue(guard.blocked(null, "192.0.2.1", 1));
        assertEquals("CompID ALICE: lifted", guard.lift(java.util.List.of("compid ALICE")));
        assertFalse(guard.blocked("ALICE", "192.0.2.3", 1), "the CompID's own block is lifted");
        assertTrue(guard.blocked("ALICE", "192.0.2.1", 1), "its guesser's address is still blocked");
        assertEquals("every block lifted", guard.lift(java.util.List.of("all")));
        assertFalse(guard.blocked("ALICE", "192.0.2.1", 1));
        assertEquals("nothing to lift", guard.lift(java.util.List.of()));
    }

    @Test
    void ipv6IsCountedByItsSlash64() throws Exception {
        assertEquals(LogonGuard.addressKey(InetAddress.getByName("2001:db8:1:2::5")),
            LogonGuard.addressKey(InetAddress.getByName("2001:db8:1:2:ffff:1:2:3")));
        assertFalse(LogonGuard.addressKey(InetAddress.getByName("2001:db8:1:2::5"))
            .equals(LogonGuard.addressKey(InetAddress.getByName("2001:db8:1:3::5"))));
        assertEquals("192.0.2.7", LogonGuard.addressKey(InetAddress.getByName("192.0.2.7")));
    }

    @Test
    void aFloodOfAddressesIsForgottenLeastRecentlyFailedFirst() {
        for (int i = 0; i <= LogonGuard.FREE_FAILURES; i++) {
            guard.failed(null, "first", 0);
        }
        assertTrue(guard.blocked(null, "first", 1));
        for (int a = 0; a < LogonGuard.MAX_ADDRESSES; a++) {
            guard.failed(null, "addr-" + a, 0);
            if (a % 1000 == 0) {
                assertTrue(guard.blocked(null, "first", 1), "looking it up does not keep it");
            }
        }
        assertFalse(guard.blocked(null, "first", 1), "the least recently failed address is forgotten, the map stays bounded");
    }
}
