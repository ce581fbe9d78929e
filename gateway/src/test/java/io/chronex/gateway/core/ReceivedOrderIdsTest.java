package io.chronex.gateway.core;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReceivedOrderIdsTest {
    /** Full and turning over, it allocates nothing: a rehash of its 4 MiB table in the gateway's loop once cost 4 MiB at a go. */
    @Test
    void fillingAndTurningOverAllocatesNothing() {
        final ReceivedOrderIds ids = new ReceivedOrderIds();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (long i = 0; i < 2L * ReceivedOrderIds.CAPACITY; i++) {
            ids.add(i & 7, i * 0x9E3779B97F4A7C15L);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(ids.contains(7, (2L * ReceivedOrderIds.CAPACITY - 1) * 0x9E3779B97F4A7C15L));
        assertEquals(0, allocated, "bytes allocated while adding " + 2 * ReceivedOrderIds.CAPACITY + " ids");
    }

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

    /** Through a checkpoint after the ring has turned over: the same ids, and the same one is forgotten next. */
    @Test
    void aCheckpointKeepsTheIdsAndTheirOrder() {
        final ReceivedOrderIds ids = new ReceivedOrderIds();
        final int extra = 1_000;
        for (long i = 0; i < ReceivedOrderIds.CAPACITY + extra; i++) {
            ids.add(3, i);
        }
        final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(ids.bytes());
        ids.writeTo(bytes);
        assertEquals(ids.bytes(), bytes.position(), "as many bytes as it says");
        final ReceivedOrderIds back = new ReceivedOrderIds();
        back.add(9, 9); // replaced by what the checkpoint holds
        back.readFrom(bytes.flip());
        assertFalse(back.contains(9, 9));
        assertFalse(back.contains(3, extra - 1), "forgotten before the checkpoint");
        assertTrue(back.contains(3, extra) && back.contains(3, ReceivedOrderIds.CAPACITY + extra - 1));
        back.add(3, -1);
        assertFalse(back.contains(3, extra), "the oldest is forgotten first, as it would have been");
        assertTrue(back.contains(3, extra + 1));
    }
}
