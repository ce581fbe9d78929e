package io.chronex.gateway;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Checks at start that {@code maxConnections} connections' buffers fit in the JVM's direct memory
 * limit: each connection holds its input and unsent-output buffers outside the heap, and a gateway
 * that ran out of direct memory at its 200th connection would fail there, under load, with an
 * OutOfMemoryError instead of refusing to start with a reason.
 */
final class DirectMemoryBudget {
    /** Left over for the JDK's own temporary direct buffers (NIO copies of heap buffers, and the like). */
    static final long RESERVE_BYTES = 8L << 20;

    private DirectMemoryBudget() {
    }

    /** Direct memory one connection allocates: its input buffer and its pending-output buffer. */
    static long perConnection(final int inputBytes, final int pendingBytes) {
        return (long) inputBytes + pendingBytes;
    }

    /** -XX:MaxDirectMemorySize, or (when not given) what the JVM defaults it to: the maximum heap. */
    static long jvmLimit() {
        final HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        final long configured = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
        return configured > 0 ? configured : Runtime.getRuntime().maxMemory();
    }

    /**
     * Throws, saying what to change, when {@code maxConnections} connections of {@code perConnection}
     * bytes and the reserve do not fit in {@code limit}.
     */
    static void check(final int maxConnections, final long perConnection, final long limit) {
        final long needed = maxConnections * perConnection + RESERVE_BYTES;
        if (needed > limit) {
            throw new IllegalStateException(String.format(Locale.ROOT, "maxConnections %d needs %d MiB of direct memory (%d KiB a"
                    + " connection, plus %d MiB reserve) but this JVM may use only %d MiB (-XX:MaxDirectMemorySize, by default the"
                    + " maximum heap -Xmx); lower maxConnections to at most %d or raise -XX:MaxDirectMemorySize", maxConnections,
                mib(needed), perConnection >> 10, mib(RESERVE_BYTES), mib(limit), Math.max(0, (limit - RESERVE_BYTES) / perConnection)));
        }
    }

    private static long mib(final long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }
}
