package io.chronex.testing;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;

/** Runs of loopback ports free right now for TCP and UDP alike (Aeron uses UDP, our tools TCP), for tests that start servers. */
public final class FreePorts {
    private FreePorts() {
    }

    /** The first of {@code count} ports in a row, all free, none within {@code count} of a base in {@code taken}. */
    public static int run(final int count, final Collection<Integer> taken) {
        for (int attempt = 0; attempt < 500; attempt++) {
            final int base = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
            boolean ok = true;
            for (final int other : taken) {
                ok &= Math.abs(other - base) >= count;
            }
            for (int p = 0; ok && p < count; p++) {
                ok = free(base + p);
            }
            if (ok) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free ports in a row found");
    }

    private static boolean free(final int port) {
        try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
             ServerSocket tcp = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return udp.isBound() && tcp.isBound();
        } catch (final IOException e) {
            return false;
        }
    }
}
