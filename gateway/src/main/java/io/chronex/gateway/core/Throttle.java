package io.chronex.gateway.core;

/**
 * A session's limit of requests per second (the gateway file's throttlePerSecond; 0: none): counted in whole seconds of
 * the monotonic clock, the same for every way in, so a client cannot get round it by changing protocol.
 */
public final class Throttle {
    private static final long SECOND = 1_000_000_000L;

    private final int perSecond;
    private long window;
    private int count;

    public Throttle(final int perSecond) {
        this.perSecond = perSecond;
    }

    /** Counts one request; false when it is over the limit of its second. */
    public boolean admit(final long nowNanos) {
        if (perSecond == 0) {
            return true;
        }
        final long w = nowNanos / SECOND;
        if (w != window) {
            window = w;
            count = 0;
        }
        return ++count <= perSecond;
    }

    public int perSecond() {
        return perSecond;
    }
}
