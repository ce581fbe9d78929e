package io.chronex.engine.cluster;

import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.testing.FreePorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A cluster's description for tests: n members on loopback with ports free right now, Aeron's files under the test's directory. */
final class ClusterHarness {
    private ClusterHarness() {
    }

    /** n members, small terms (tests need no 64 MiB buffers) and a 2 s leader heartbeat timeout; also written as cluster.yaml. */
    static ClusterConfig config(final Path dir, final int n) {
        final List<ClusterConfig.Member> members = new ArrayList<>();
        final List<Integer> bases = new ArrayList<>();
        final StringBuilder yaml = new StringBuilder("members:\n");
        for (int id = 0; id < n; id++) {
            final int base = FreePorts.run(ClusterConfig.PORTS_PER_MEMBER, bases);
            bases.add(base);
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
}
