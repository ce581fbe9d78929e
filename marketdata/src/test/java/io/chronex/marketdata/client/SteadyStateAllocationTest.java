package io.chronex.marketdata.client;

import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.marketdata.FeedEncoder;
import io.chronex.queues.book.Books;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publisher's encoding and the client's applying allocate nothing once warm: the bytes this thread allocated (the
 * JVM's own count) do not move over 200,000 incrementals encoded and applied. Not a benchmark: a count, not a time.
 */
class SteadyStateAllocationTest {
    @Test
    void encodingAndApplyingIncrementalsAllocateNothingWhenSteady() {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        final FeedEncoder encoder = new FeedEncoder();
        final FeedState state = new FeedState(64 * 1024);
        final Books books = new Books();
        final Result result = new Result();
        for (final int symbol : new int[] {1, 2}) {
            final int length = encoder.snapshot(0, -1, symbol, "S" + symbol, 100, 2, false, books.bookOrNew(symbol), Integer.MAX_VALUE);
            state.onMessage(encoder.buffer(), 0, length);
        }
        assertTrue(state.synced());
        final long[] seq = {0};
        final Runnable round = () -> {
            for (int i = 0; i < 100_000; i++) {
                final long n = ++seq[0];
                result.begin(CommandType.NEW_ORDER);
                result.symbol = 1 + (int) (n & 1);
                final LevelChange change = result.addLevelChange();
                change.symbol = result.symbol;
                change.side = (n & 2) == 0 ? Side.BUY : Side.SELL;
                // Prices within a fixed band, so that the books stop growing after the warm-up.
                change.price = change.side == Side.BUY ? 900 + n % 50 : 1000 + n % 50;
                change.quantity = n % 7 == 0 ? 0 : n % 100 + 1;
                change.orderCount = change.quantity == 0 ? 0 : 1;
                if (n % 3 == 0) {
                    final Fill fill = result.addFill();
                    fill.tradeId = n;
                    fill.price = 1000;
                    fill.quantity = 1;
                    fill.takerSide = Side.BUY;
                }
                final int length = encoder.incremental(n, n, n, n, result, Integer.MAX_VALUE);
                state.onMessage(encoder.buffer(), 0, length);
            }
        };
        round.run();
        final long thread = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(thread);
        round.run();
        round.run();
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertEquals(seq[0], state.lastSeq());
        assertEquals(0, state.gaps());
        // Not 0: once in a while the JIT's own work on this thread (a recompilation after the profile another test left in the
        // same JVM) shows as a few dozen bytes (88 seen once). Anything per message would be at least 16 bytes x 200,000.
        assertTrue(allocated < 1024, allocated + " bytes allocated over 200,000 incrementals");
    }
}
