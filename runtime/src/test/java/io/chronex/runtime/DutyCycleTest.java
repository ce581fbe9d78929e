package io.chronex.runtime;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The duty cycle's failure path and its status clock; its signal path (SIGTERM, Ctrl-C) is tested
 * on real processes by the engine's and the gateway's tests.
 */
class DutyCycleTest {
    /** Works a few times, then throws; records where and what ran. */
    private static class FailingAgent implements Agent {
        private final List<String> calls = new CopyOnWriteArrayList<>();
        private int works;

        @Override
        public void onStart() {
            calls.add("start on " + Thread.currentThread().getName());
        }

        @Override
        public int doWork() {
            if (++works == 3) {
                throw new IllegalStateException("boom");
            }
            calls.add("work");
            return 1;
        }

        @Override
        public void onClose() {
            calls.add("close on " + Thread.currentThread().getName());
        }

        @Override
        public String roleName() {
            return "failing";
        }
    }

    @Test
    void aFailureEndsTheLoopAtOnceIsLoggedAndGivesExitCodeOne() throws Exception {
        final FailingAgent agent = new FailingAgent();
        final List<String> log = new CopyOnWriteArrayList<>();
        assertEquals(1, DutyCycle.run("failing", () -> {
            agent.calls.add("open on " + Thread.currentThread().getName());
            return agent;
        }, new BusySpinIdleStrategy(), log::add));
        assertEquals(List.of("open on failing", "start on failing", "work", "work", "close on failing"), agent.calls,
            "opened and run on its own thread, named after its role; no doWork after the failure, then onClose");
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.get(0).startsWith("failing failed: java.lang.IllegalStateException: boom"), log.get(0));
        assertTrue(log.get(0).contains("at io.chronex.runtime.DutyCycleTest$FailingAgent.doWork"), "with the stack trace: " + log.get(0));
    }

    @Test
    void aFailureToStopIsAFailureToo() throws Exception {
        final FailingAgent agent = new FailingAgent() {
            @Override
            public void onClose() {
                throw new IllegalStateException("cannot write the snapshot");
            }
        };
        final List<String> log = new CopyOnWriteArrayList<>();
        assertEquals(1, DutyCycle.run("failing", () -> agent, new BusySpinIdleStrategy(), log::add));
        assertEquals(2, log.size(), log.toString());
        assertTrue(log.get(1).startsWith("failing failed: java.lang.IllegalStateException: cannot write the snapshot"), log.get(1));
    }

    @Test
    void whatTheOpenerThrowsIsThrownToTheCallerUnloggedOnceTheThreadIsGone() {
        final List<String> log = new CopyOnWriteArrayList<>();
        final Thread[] opener = new Thread[1];
        final Args.UsageException thrown = assertThrows(Args.UsageException.class, () -> DutyCycle.run("opening", () -> {
            opener[0] = Thread.currentThread();
            throw new Args.UsageException("the data directory holds another exchange");
        }, new BusySpinIdleStrategy(), log::add));
        assertEquals("the data directory holds another exchange", thrown.getMessage());
        assertEquals(List.of(), log, "the caller reports it (Tool: 'tool: reason', exit 2)");
        assertEquals("opening", opener[0].getName());
        assertFalse(opener[0].isAlive());
    }

    @Test
    void theStatusClockIsDueOncePerIntervalAndReadsTheClockOnlyEvery1024Calls() {
        final CachedNanoClock time = new CachedNanoClock();
        time.update(1_000_000);
        final DutyCycle.StatusClock clock = new DutyCycle.StatusClock(TimeUnit.MILLISECONDS.toNanos(200), time);
        time.advance(TimeUnit.MILLISECONDS.toNanos(199));
        for (int i = 0; i < 5000; i++) {
            assertFalse(clock.due(), "not before the interval is over");
        }
        time.advance(TimeUnit.MILLISECONDS.toNanos(1));
        int due = 0;
        int firstDue = -1;
        for (int i = 1; i <= 4096; i++) {
            if (clock.due()) {
                due++;
                firstDue = firstDue < 0 ? i : firstDue;
            }
        }
        assertEquals(1, due, "once, then not until the next interval is over");
        assertTrue(firstDue <= 1024, "within 1,024 calls of the interval's end: " + firstDue);
        time.advance(TimeUnit.MILLISECONDS.toNanos(200));
        for (int i = 0; i < 1024; i++) {
            due += clock.due() ? 1 : 0;
        }
        assertEquals(2, due, "again once the next interval is over");
    }
}
