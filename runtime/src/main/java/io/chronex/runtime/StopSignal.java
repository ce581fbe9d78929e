package io.chronex.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * SIGTERM and SIGINT (Ctrl-C) as a request to stop, not as the JVM's exit: the process winds down
 * by itself and exits with its own code (0 after a clean stop), however long its last snapshot takes.
 *
 * <p>Why not Agrona's {@code ShutdownSignalBarrier}: since Agrona 2.3 it is a shutdown hook, so a signal
 * starts the JVM's exit, whose status is then 143 whatever the process says, and which halts the JVM 10 s
 * after the signal or as soon as the barrier is closed, cutting off whatever the process still does after
 * its loop (the pid file's removal, the last log line). The JDK's {@code sun.misc.Signal} (module
 * jdk.unsupported, exported to every class path) replaces the JVM's handler instead; it is reached by
 * reflection because javac has no switch to silence its "internal proprietary API" warning under -Werror.
 */
public final class StopSignal {
    private static final List<StopSignal> WAITING = new CopyOnWriteArrayList<>();
    private static final String[] SIGNALS = {"TERM", "INT"};
    private static boolean installed;

    private final CountDownLatch latch = new CountDownLatch(1);

    private StopSignal() {
    }

    /** A request to stop that the next SIGTERM or SIGINT (or {@link #signal()}) fulfils. */
    public static StopSignal register() {
        install();
        final StopSignal stop = new StopSignal();
        WAITING.add(stop);
        return stop;
    }

    /** Waits for the signal (an interrupt counts as one). */
    public void await() {
        try {
            latch.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            WAITING.remove(this);
        }
    }

    /** Waits up to {@code millis} for the signal; true when it came (an interrupt counts as one). */
    public boolean await(final long millis) {
        try {
            return latch.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Ends the wait as a signal would: for a loop that ends by itself (a failure). */
    public void signal() {
        latch.countDown();
    }

    private static void signalAll() {
        for (final StopSignal stop : WAITING) {
            stop.signal();
        }
    }

    private static synchronized void install() {
        if (installed) {
            return;
        }
        try {
            final Class<?> signal = Class.forName("sun.misc.Signal");
            final Class<?> handler = Class.forName("sun.misc.SignalHandler");
            final InvocationHandler onSignal = (final Object proxy, final Method method, final Object[] args) -> {
                if ("handle".equals(method.getName())) {
                    signalAll();
                    return null;
                }
                return method.invoke(StopSignal.class, args); // toString, hashCode, equals: nothing of the proxy's own
            };
            final Object proxy = Proxy.newProxyInstance(StopSignal.class.getClassLoader(), new Class<?>[] {handler}, onSignal);
            final Method handle = signal.getMethod("handle", signal, handler);
            for (final String name : SIGNALS) {
                handle.invoke(null, signal.getConstructor(String.class).newInstance(name), proxy);
            }
            installed = true;
        } catch (final ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot handle SIGTERM and SIGINT on this JVM (sun.misc.Signal): " + e, e);
        }
    }
}
