package io.chronex.engine.cluster;

import io.chronex.queues.cluster.ClusterConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** A cluster's description for tests: n members on loopback with ports free right now, Aeron's files under the test's directory. */
final class ClusterHarness {
    private ClusterHarness() {
    }

    /** n members, small terms (tests need no 64 MiB buffers) and a 2 s leader heartbeat timeout; also written as cluster.yaml. */
    static ClusterConfig config(final Path dir, final int n) {
        final List<ClusterConfig.Member> members = new ArrayList<>();
        final StringBuilder yaml = new StringBuilder("members:\n");
        for (int id = 0; id < n; id++) {
            final int base = freeBase(members);
            members.add(new ClusterConfig.Member(id, "localhost", base));
            yaml.append("  - {id: ").append(id).append(", host: localhost, basePort: ").append(base).append("}\n");
        }
        final Path aeron = dir.resolve("aeron");
        yaml.append("aeronDir: ").append(aeron).append('\n')
            .append("termLength: 512KiB\nleaderHeartbeatTimeoutMs: 2000\nsessionTimeoutMs: 10000\n");
        final Path file = dir.resolve("cluster.yaml");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, yaml);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ClusterConfig(file, List.copyOf(members), aeron, 512 * 1024, 2_000, 10_000);
    }

    /** A base port whose five UDP and TCP ports are free and clear of the members already chosen. */
    private static int freeBase(final List<ClusterConfig.Member> taken) {
        for (int attempt = 0; attempt < 200; attempt++) {
            final int base = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
            boolean ok = true;
            for (final ClusterConfig.Member m : taken) {
                ok &= Math.abs(m.basePort() - base) >= ClusterConfig.PORTS_PER_MEMBER;
            }
            for (int p = 0; ok && p < ClusterConfig.PORTS_PER_MEMBER; p++) {
                ok = free(base + p);
            }
            if (ok) {
                return base;
            }
        }
        throw new IllegalStateException("no five free ports in a row found");
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
