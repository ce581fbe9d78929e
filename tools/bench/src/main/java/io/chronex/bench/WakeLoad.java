package io.chronex.bench;

import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.Tool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * bin/bench-monitor-cost's control reader: threads that only park and spin, touching no queue, socket or shared memory, so
 * that what they cost the engine is what any process with that CPU use and those wake-ups would cost.
 */
public final class WakeLoad {
    static final String USAGE = """
        Usage: WakeLoad [--threads N] [--park-us P] [--spin-us S]

        Starts N threads (default 2) that each park P µs (default 1000) and then spin S µs (default 100) on
        arithmetic alone, for ever: about N * S / (P + S) of a CPU in 1/(P + S) wake-ups per thread and second, and
        nothing else. Prints "wakeload started" once they run; stops at SIGTERM.
        """;

    private static volatile long sink;

    private WakeLoad() {
    }

    public static void main(final String[] argv) {
        Tool.run("wakeload", USAGE, () -> run(argv));
    }

    private static int run(final String[] argv) throws InterruptedException {
        final Args args = Args.parse(argv, "--threads", "--park-us", "--spin-us");
        final int threads = args.intNumber("--threads", 2, 1, 64);
        final long parkNanos = TimeUnit.MICROSECONDS.toNanos(args.number("--park-us", 1_000, 1, 1_000_000));
        final long spinNanos = TimeUnit.MICROSECONDS.toNanos(args.number("--spin-us", 100, 0, 1_000_000));
        final CountDownLatch stop = new CountDownLatch(1);
        DutyCycle.onShutdownSignal("wakeload-stop", stop::countDown);
        for (int i = 0; i < threads; i++) {
            final Thread thread = new Thread(() -> load(parkNanos, spinNanos, stop), "wakeload-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        System.out.println("wakeload started");
        stop.await();
        return 0;
    }

    private static void load(final long parkNanos, final long spinNanos, final CountDownLatch stop) {
        long x = 1;
        while (stop.getCount() > 0) {
            LockSupport.parkNanos(parkNanos);
            final long end = System.nanoTime() + spinNanos;
            while (System.nanoTime() < end) {
                x = x * 31 + 7;
            }
            sink = x;
        }
    }
}
