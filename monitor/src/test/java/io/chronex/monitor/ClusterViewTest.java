package io.chronex.monitor;

import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.Cluster;
import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.cluster.ClusterNode;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Tool;
import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/cluster-status's readers on three real members in this JVM (ClusterNode, Aeron's files under the test's directory):
 * nothing up and no leader before they start; one leader, three up, one term and one commit position once they have
 * elected, read from the drivers' files and asked over the network alike; the leader closed, it reads as not running
 * (files) or down (network) and another member leads in a higher term. Also the tool's exit codes.
 */
class ClusterViewTest {
    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void aClusterOfThreeReadsAsOneLeaderThenANewLeaderAfterTheLeaderStops() throws Exception {
        final ClusterConfig cluster = config(tmp, 3);
        final ClusterView view = new ClusterView(cluster);

        final ClusterView.Snapshot before = view.read();
        assertEquals(0, before.up());
        assertNull(before.leader());
        before.members().forEach(m -> assertEquals(ClusterView.Liveness.ABSENT, m.liveness(), m.toString()));
        assertTrue(before.alerts().contains("NO CLUSTER LEADER (no member up on this host)"), before.alerts().toString());
        assertEquals(1, status(cluster), "no leader: exit 1");
        assertTrue(lastOutput.endsWith("RESULT leader=none members=0 term=-1 commit_position=-1\n"), lastOutput);
        assertTrue(lastOutput.contains("member 1  localhost    down (no answer from localhost:" + cluster.member(1).statusPort() + ": "),
            lastOutput);
        assertEquals(1, status(cluster, "--local"), "no leader: exit 1");
        assertTrue(lastOutput.endsWith("RESULT leader=none members=0 term=-1 commit_position=-1\n"), lastOutput);
        assertTrue(lastOutput.contains("member 1  localhost    not running on this host"), lastOutput);

        final ClusterNode[] nodes = new ClusterNode[3];
        try {
            for (int id = 0; id < 3; id++) {
                nodes[id] = ClusterNode.start(cluster, id, DataDirectory.open(tmp.resolve("node-" + id)),
                    EngineConfig.noRiskChecks(SymbolSpec.plain(1)), 0, "backoff", line -> log.add(line));
            }
            final ClusterView.Snapshot[] settled = new ClusterView.Snapshot[1];
            Await.until("three members up, one leader, one term, the followers at the leader's commit position > 0", 60, () -> {
                settled[0] = view.read();
                return settled(settled[0], 3);
            });
            final ClusterView.Snapshot three = settled[0];
            final ClusterView.Member leader = three.leader();
            assertNotNull(leader);
            assertEquals(1, three.members().stream().filter(m -> m.role() == Cluster.Role.LEADER).count(), three.toString());
            for (final ClusterView.Member m : three.members()) {
                assertEquals(leader.leadershipTermId(), m.leadershipTermId(), "member " + m.id() + "'s term");
                assertEquals(ConsensusModule.State.ACTIVE, m.moduleState(), "member " + m.id());
                assertTrue(m.commitPosition() > 0, "member " + m.id() + "'s commit position " + m.commitPosition());
                assertEquals(0, three.lag(m), "member " + m.id() + "'s lag");
                assertTrue(m.electionCount() >= 1, "member " + m.id() + " has seen an election");
                assertEquals(0, m.snapshotCount());
                assertTrue(ClusterView.line(three, m).contains(" up    " + m.roleName() + " "), ClusterView.line(three, m));
            }
            assertTrue(three.alerts().isEmpty(), three.alerts().toString());
            // Over the network (the default): each member's responder reads its own counters; the same leader and term as the
            // leader's counters read from its driver's files here.
            final ClusterView.Snapshot net = new NetClusterView(cluster).read();
            assertEquals(3, net.up(), net.toString());
            assertEquals(1, net.members().stream().filter(m -> m.role() == Cluster.Role.LEADER).count(), net.toString());
            assertEquals(leader.id(), net.leader().id());
            assertEquals(leader.leadershipTermId(), net.leader().leadershipTermId());
            assertTrue(net.alerts().isEmpty(), net.alerts().toString());
            assertEquals(0, status(cluster), "a leader: exit 0");
            assertTrue(lastOutput.contains("RESULT leader=" + leader.id() + " members=3 term=" + leader.leadershipTermId()
                + " commit_position="), lastOutput);
            assertEquals(1, lastOutput.lines().filter(l -> l.contains(" up    leader ")).count(), lastOutput);
            assertEquals(3, lastOutput.lines().filter(l -> l.contains(" up    ")).count(), lastOutput);
            assertEquals(0, status(cluster, "--local"), "a leader: exit 0");
            assertTrue(lastOutput.contains("RESULT leader=" + leader.id() + " members=3 term=" + leader.leadershipTermId()
                + " commit_position="), lastOutput);

            nodes[leader.id()].close();
            nodes[leader.id()] = null;
            Await.until("the old leader not up, another member leading in a higher term", 60, () -> {
                settled[0] = view.read();
                final ClusterView.Member next = settled[0].leader();
                return !settled[0].members().get(leader.id()).up() && next != null && next.id() != leader.id()
                    && next.leadershipTermId() > leader.leadershipTermId() && settled(settled[0], 2);
            });
            final ClusterView.Snapshot two = settled[0];
            assertEquals(2, two.up());
            assertNotEquals(leader.id(), two.leader().id());
            assertTrue(two.members().get(leader.id()).describe().startsWith("not running"), two.members().get(leader.id()).describe());
            assertEquals(List.of("CLUSTER MEMBER " + leader.id() + " NOT RUNNING (its host localhost is this one)"), two.alerts());
            final ByteArrayOutputStream monitorOut = new ByteArrayOutputStream();
            final int monitorCode = Monitor.run(new String[] {"--data-dir", tmp.resolve("node-" + two.leader().id()).toString(), "--once",
                "--cluster", cluster.file().toString()}, new PrintStream(monitorOut, true, StandardCharsets.UTF_8));
            final String block = monitorOut.toString(StandardCharsets.UTF_8);
            System.out.print(block);
            assertEquals(0, monitorCode, block);
            assertTrue(block.contains("alerts   CLUSTER MEMBER " + leader.id() + " DOWN (no answer from localhost:"
                + cluster.member(leader.id()).statusPort() + ": "), block);
            assertTrue(block.contains("cluster  leader " + two.leader().id() + " in term "), block);
            assertTrue(block.contains(", 2/3 members up\n"), block);
            assertEquals(0, status(cluster), "a new leader: exit 0");
            assertTrue(lastOutput.contains("RESULT leader=" + two.leader().id() + " members=2 term=" + two.leader().leadershipTermId()),
                lastOutput);
        } finally {
            for (final ClusterNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
            log.forEach(System.out::println); // kept in the surefire report
        }
        final ClusterView.Snapshot after = view.read();
        assertEquals(0, after.up());
        assertTrue(after.alerts().contains("NO CLUSTER LEADER (no member up on this host)"), after.alerts().toString());
    }

    @Test
    void aWrongCommandLineIsExitTwo() throws Exception {
        final ClusterConfig cluster = config(tmp, 3);
        assertEquals(2, exitCode("--cluster", cluster.file().toString(), "--bogus"));
        assertEquals(2, exitCode());
        assertEquals(2, exitCode("--cluster", tmp.resolve("missing.yaml").toString()));
        assertEquals(2, exitCode("--cluster", cluster.file().toString(), "--watch", "0"));
        assertEquals(2, exitCode("--cluster", cluster.file().toString(), "--watch", "1", "--once"));
        assertEquals(2, exitCode("--cluster", cluster.file().toString(), "--timeout-ms", "10"));
        assertEquals(2, exitCode("--cluster", cluster.file().toString(), "--timeout-ms", "100", "--local"));
        final Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "members: []\n");
        assertEquals(2, exitCode("--cluster", bad.toString()));
        assertEquals(0, exitCode("--help"));
        assertEquals(1, exitCode("--cluster", cluster.file().toString(), "--once"), "nothing runs: no leader");
        assertEquals(1, exitCode("--cluster", cluster.file().toString(), "--local"), "nothing runs here: no leader");
    }

    /**
     * {@code n} members up, one leader with a commit position past the term's start (its new-term event committed), one
     * term, every follower at the leader's commit position.
     */
    private static boolean settled(final ClusterView.Snapshot s, final int n) {
        final ClusterView.Member leader = s.leader();
        if (s.up() != n || leader == null || leader.commitPosition() <= 0) {
            return false;
        }
        for (final ClusterView.Member m : s.members()) {
            if (m.up() && (m.leadershipTermId() != leader.leadershipTermId() || s.lag(m) != 0 || m.role() == null
                || m.moduleState() != ConsensusModule.State.ACTIVE)) {
                return false;
            }
        }
        return true;
    }

    private String lastOutput = "";

    private int status(final ClusterConfig cluster, final String... more) throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> argv = new ArrayList<>(List.of("--cluster", cluster.file().toString()));
        argv.addAll(List.of(more));
        final int code = ClusterStatus.run(argv.toArray(String[]::new), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        lastOutput = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(lastOutput); // kept in the surefire report
        return code;
    }

    private static int exitCode(final String... argv) {
        final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Tool.exitCode("cluster-status", ClusterStatus.USAGE, () -> ClusterStatus.run(argv, out));
    }

    /** n members on loopback with six free ports each, Aeron's directories under {@code dir}, small terms; written as cluster.yaml. */
    static ClusterConfig config(final Path dir, final int n) throws Exception {
        final List<Integer> bases = new ArrayList<>();
        final StringBuilder yaml = new StringBuilder("members:\n");
        for (int id = 0; id < n; id++) {
            final int base = io.chronex.testing.FreePorts.run(ClusterConfig.PORTS_PER_MEMBER, bases);
            bases.add(base);
            yaml.append("  - {id: ").append(id).append(", host: localhost, basePort: ").append(base).append("}\n");
        }
        yaml.append("aeronDir: ").append(dir.resolve("aeron")).append('\n')
            .append("termLength: 512KiB\nleaderHeartbeatTimeoutMs: 2000\nsessionTimeoutMs: 10000\n");
        final Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, yaml);
        return ClusterConfig.load(file);
    }
}
