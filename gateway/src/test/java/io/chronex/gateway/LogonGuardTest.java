package io.chronex.gateway;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The back-off failed logons earn, on a clock the test moves: free failures, doubling blocks, the cap, a success's reset. */
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
            assertTrue(guard.blocked("ALICE", "10.0.0.2", now + 1), "the CompID is blocked from any address");
            assertTrue(guard.blocked("BOB", "10.0.0.1", now + 1), "the address is blocked for any CompID");
            assertFalse(guard.blocked("BOB", "10.0.0.2", now + 1), "others are not");
            now += guard.blockedForNanos("ALICE", "10.0.0.1", now);
            assertFalse(guard.blocked("ALICE", "10.0.0.1", now), "heard again when the block ends");
            expectedBlock *= 2;
        }
        assertEquals(LogonGuard.MAX_BLOCK_NANOS, 300 * SECOND);
        guard.succeeded("ALICE", "10.0.0.1");
        assertEquals(0, guard.failures("ALICE"));
        guard.failed("ALICE", "10.0.0.1", now);
        assertFalse(guard.blocked("ALICE", "10.0.0.1", now), "a success starts the count afresh");
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
    void aFloodOfAddressesIsForgottenOldestFirst() {
        for (int i = 0; i <= LogonGuard.FREE_FAILURES; i++) {
            guard.failed(null, "first", 0);
        }
        assertTrue(guard.blocked(null, "first", 1));
        for (int a = 0; a < LogonGuard.MAX_ADDRESSES; a++) {
            guard.failed(null, "addr-" + a, 0);
        }
        assertFalse(guard.blocked(null, "first", 1), "the least recently failed address is forgotten, the map stays bounded");
    }
}
