package io.chronex.gateway.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A session's requests per second: the limit holds within a second and starts again with the next one. */
class ThrottleTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theLimitHoldsWithinASecondAndTheNextSecondStartsAfresh() {
        final Throttle t = new Throttle(3);
        final long start = 42 * SECOND;
        assertTrue(t.admit(start));
        assertTrue(t.admit(start + 1));
        assertTrue(t.admit(start + SECOND - 1));
        assertFalse(t.admit(start + SECOND - 1), "a fourth in the same second");
        assertFalse(t.admit(start + 10), "still refused, and counted");
        assertTrue(t.admit(start + SECOND), "the next second");
        assertTrue(t.admit(start + SECOND + 5));
        assertTrue(t.admit(start + SECOND + 6));
        assertFalse(t.admit(start + SECOND + 7));
    }

    @Test
    void zeroMeansNoLimit() {
        final Throttle t = new Throttle(0);
        for (int i = 0; i < 100_000; i++) {
            assertTrue(t.admit(7));
        }
    }
}
