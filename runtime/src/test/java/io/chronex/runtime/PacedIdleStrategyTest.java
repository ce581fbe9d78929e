package io.chronex.runtime;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paced idle strategy parks after turns with little or no work, not after full ones, and is --idle backoff for the feed. */
class PacedIdleStrategyTest {
    @Test
    void pausesAfterATurnThatDidALittleWorkAndNotAfterAFullOne() {
        final List<Long> pauses = new ArrayList<>();
        final PacedIdleStrategy idle = new PacedIdleStrategy(250_000, 256, pauses::add);
        idle.idle(1);
        idle.idle(255);
        assertEquals(List.of(250_000L, 250_000L), pauses);
        // A full batch: more is probably waiting, so the loop goes on at once.
        idle.idle(256);
        idle.idle(10_000);
        assertEquals(2, pauses.size());
        // A turn that found nothing parks for the pause too: the loop wakes about once per pause, not more often.
        idle.idle(0);
        idle.idle();
        assertEquals(List.of(250_000L, 250_000L, 250_000L, 250_000L), pauses);
    }

    @Test
    void aZeroPauseIsThePlainBackoffAndANegativeOneIsRefused() {
        final List<Long> pauses = new ArrayList<>();
        final PacedIdleStrategy idle = new PacedIdleStrategy(0, 256, pauses::add);
        idle.idle(10);
        idle.idle(0);
        assertTrue(pauses.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new PacedIdleStrategy(-1, 256));
        assertThrows(IllegalArgumentException.class, () -> new PacedIdleStrategy(1_000, 0));
    }

    @Test
    void backoffByNameIsPacedAndTheOthersAreAsEverywhere() {
        final IdleStrategy backoff = IdleStrategies.pacedByName("backoff", 1_000_000, 8);
        assertEquals(1_000_000, assertInstanceOf(PacedIdleStrategy.class, backoff).pauseNanos());
        assertEquals(8, ((PacedIdleStrategy) backoff).busyWork());
        assertInstanceOf(YieldingIdleStrategy.class, IdleStrategies.pacedByName("yield", 1_000_000, 8));
        assertNull(IdleStrategies.pacedByName("sleepy", 1_000_000, 8));
    }
}
