package io.chronex.gateway;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReceivedOrderIdsTest {
    @Test
    void remembersPerAccountAndForgetsTheOldestFirst() {
        final ReceivedOrderIds ids = new ReceivedOrderIds();
        ids.add(1, 42);
        assertTrue(ids.contains(1, 42));
        assertFalse(ids.contains(2, 42), "another account's id is another id");
        for (long i = 0; i < ReceivedOrderIds.CAPACITY - 1; i++) {
            ids.add(7, 1_000 + i);
        }
        ids.add(1, 42);
        assertTrue(ids.contains(1, 42), "full, and an id added again is not added twice");
        ids.add(7, -5);
        assertFalse(ids.contains(1, 42), "one more forgets the oldest");
        assertTrue(ids.contains(7, 1_000));
        assertTrue(ids.contains(7, -5));
    }
}
