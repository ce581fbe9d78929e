package io.chronex.engine;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

import static io.chronex.engine.EngineFixture.ALICE;
import static io.chronex.engine.EngineFixture.BOB;
import static io.chronex.engine.EngineFixture.CAROL;
import static io.chronex.engine.EngineFixture.SYM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Once pools and result lists have grown, applying commands allocates nothing. Guards the hot path
 * against regressions between JMH runs (the JMH -prof gc figure in docs/performance.md is the proof).
 */
class SteadyStateAllocationTest {
    private static final long[] ACCOUNTS = {ALICE, BOB, CAROL};
    private final EngineFixture f = EngineFixture.standard();
    private final SplittableRandom random = new SplittableRandom(42);
    private long nextId = 1;

    /** Orders of every kind around 1000 that trade, amend and cancel, then a mass cancel empties the book. */
    private void cycle() {
        final Command c = f.command;
        final long first = nextId;
        for (int i = 0; i < 40; i++) {
            final long account = 1 + random.nextInt(3);
            final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
            final long price = 990 + random.nextInt(21);
            final TimeInForce tif = switch (random.nextInt(6)) {
                case 0 -> TimeInForce.IOC;
                case 1 -> TimeInForce.DAY;
                case 2 -> TimeInForce.FOK;
                default -> TimeInForce.GTC;
            };
            f.apply(c.newOrder(account, SYM, nextId++, side, OrderType.LIMIT, tif, price, 1 + random.nextInt(9)));
            final long target = first + random.nextInt((int) (nextId - first));
            switch (random.nextInt(4)) {
                case 0 -> f.apply(c.move(account, target, 990 + random.nextInt(21)));
                case 1 -> f.apply(c.reduce(account, target, 1));
                case 2 -> f.apply(c.replace(account, target, 0, 990 + random.nextInt(21), 5));
                default -> f.apply(c.cancel(account, target));
            }
        }
        f.apply(c.symbolCommand(CommandType.END_OF_DAY, 0));
        for (final long account : ACCOUNTS) {
            f.apply(c.massCancel(account, 0));
        }
    }

    @Test
    void applyingCommandsInSteadyStateAllocatesNothing() {
        f.limits(CAROL, 0, 0, 0, SelfTradePrevention.CANCEL_RESTING);
        for (int i = 0; i < 20_000; i++) {
            cycle();
        }
        assertEquals(0, f.engine.levelCount(SYM, Side.BUY), "each cycle ends with an empty book");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long thread = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 5_000; i++) {
            cycle();
        }
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;
        final long commands = 5_000L * 84;
        // Zero is expected; a few hundred bytes of slack absorb a JIT deoptimisation, not a per-command leak.
        assertTrue(allocated < 4_096, allocated + " bytes allocated over " + commands + " commands");
    }
}
