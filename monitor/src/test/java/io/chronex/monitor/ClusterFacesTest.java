package io.chronex.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's cluster lines from known member readings (--cluster): the status block's lines and alerts, the state
 * document's {@code cluster}, the Prometheus gauges; a leader with a lagging follower and a dead member, then no leader.
 */
class ClusterFacesTest {
    private static final Path AERON = Path.of("/dev/shm/test-aeron");

    private static ClusterView.Member up(final int id, final Cluster.Role role, final long term, final long commit) {
        return up(id, role, term, commit, ClusterView.UNKNOWN);
    }

    private static ClusterView.Member up(final int id, final Cluster.Role role, final long term, final long commit,
                                         final String storage) {
        return new ClusterView.Member(id, "localhost", true, AERON.resolve("node-" + id), ClusterView.Liveness.UP, "", 100 + id, 5, role,
            ConsensusModule.State.ACTIVE, ElectionState.CLOSED, term, commit, 2, 1, storage);
    }

    private static ClusterView.Member down(final int id) {
        return new ClusterView.Member(id, "localhost", true, AERON.resolve("node-" + id), ClusterView.Liveness.DOWN,
            "driver pid 4711 is not running", 4711, 3_000, null, null, null, -1, -1, -1, -1,
            ClusterView.UNKNOWN);
    }

    private static ClusterView.Snapshot cluster(final ClusterView.Member... members) {
        return new ClusterView.Snapshot(Path.of("config/cluster.yaml"), Instant.EPOCH, List.of(members));
    }

    private static StatusBlock.View view(final ClusterView.Snapshot cluster) {
        return new StatusBlock.View(Path.of("D"), Instant.EPOCH, 1.0, 0, 1_000_000_000L, new ProcessStatus(ProcessStatus.State.ALIVE, 1),
            List.of(), Map.of(), 0, 0, null, null, List.of(), cluster);
    }

    private final MonitorModel model = new MonitorModel();

    @Test
    void aLeaderALaggingFollowerAndADeadMember() throws Exception {
        model.rollInterval();
        final ClusterView.Snapshot c = cluster(up(0, Cluster.Role.FOLLOWER, 3, 4_800), up(1, Cluster.Role.LEADER, 3, 5_000), down(2));
        final String block = StatusBlock.render(model, view(c));
        assertTrue(block.contains("alerts   CLUSTER MEMBER 2 DOWN (driver pid 4711 is not running)\n"), block);
        assertTrue(block.contains("cluster  leader 1 in term 3, commit position 5000, 2/3 members up on this host\n"), block);
        assertTrue(block.contains("  member 0  localhost    up    follower  state ACTIVE   election CLOSED                 term 3"
            + "  commit 4800  lag 200  elections 2  snapshots 1\n"), block);
        assertTrue(block.contains("  member 1  localhost    up    leader    state ACTIVE   election CLOSED                 term 3"
            + "  commit 5000  lag 0  elections 2  snapshots 1\n"), block);
        assertTrue(block.contains("  member 2  localhost    down (driver pid 4711 is not running)\n"), block);
        assertEquals("RESULT leader=1 members=2 term=3 commit_position=5000", ClusterView.result(c));

        final JsonNode s = new ObjectMapper().readTree(StateJson.render(model, view(c), new History()));
        assertEquals(1, s.at("/cluster/leader").asInt());
        assertEquals(3, s.at("/cluster/term").asLong());
        assertEquals(5_000, s.at("/cluster/commitPosition").asLong());
        assertEquals(2, s.at("/cluster/up").asInt());
        assertEquals("follower", s.at("/cluster/members/0/role").asText());
        assertEquals(200, s.at("/cluster/members/0/lag").asLong());
        assertEquals("CLOSED", s.at("/cluster/members/0/electionState").asText());
        assertEquals("DOWN", s.at("/cluster/members/2/liveness").asText());
        assertEquals(-1, s.at("/cluster/members/2/lag").asLong());
        assertTrue(s.get("alerts").toString().contains("CLUSTER MEMBER 2 DOWN"), s.get("alerts").toString());

        final String metrics = MetricsText.render(model, view(c));
        assertEquals(List.of(), PromLint.problems(metrics), "what promtool check metrics would say of\n" + metrics);
        for (final String line : metrics.split("\n")) {
            assertTrue(line.startsWith("#") || MonitorFacesTest.SAMPLE.matcher(line).matches(), "not a sample line: " + line);
        }
        assertTrue(metrics.contains("chronex_cluster_has_leader 1\n"), metrics);
        assertTrue(metrics.contains("chronex_cluster_member_up{member=\"2\"} 0\n"), metrics);
        assertTrue(metrics.contains("chronex_cluster_member_role{member=\"0\"} 0\n"), metrics);
        assertTrue(metrics.contains("chronex_cluster_member_role{member=\"1\"} 2\n"), metrics);
        assertFalse(metrics.contains("chronex_cluster_member_role{member=\"2\"}"), "a down member has no role: " + metrics);
        assertTrue(metrics.contains("chronex_cluster_commit_position{member=\"0\"} 4800\n"), metrics);
        assertTrue(metrics.contains("chronex_cluster_lag_bytes{member=\"0\"} 200\n"), metrics);
        assertTrue(metrics.contains("chronex_cluster_leadership_term{member=\"1\"} 3\n"), metrics);
    }

    @Test
    void noLeaderIsAnAlertInEveryFace() throws Exception {
        model.rollInterval();
        final ClusterView.Snapshot c = cluster(up(0, Cluster.Role.CANDIDATE, 4, 5_000), up(1, Cluster.Role.FOLLOWER, 3, 5_000), down(2));
        final List<String> alerts = StatusBlock.alerts(model, view(c));
        assertEquals(List.of("NO CLUSTER LEADER", "CLUSTER MEMBER 2 DOWN (driver pid 4711 is not running)"), alerts);
        final String block = StatusBlock.render(model, view(c));
        assertTrue(block.contains("cluster  NO LEADER, 2/3 members up on this host\n"), block);
        assertTrue(block.contains("lag ?"), "no leader, no lag: " + block);
        assertEquals("RESULT leader=none members=2 term=-1 commit_position=-1", ClusterView.result(c));
        final JsonNode s = new ObjectMapper().readTree(StateJson.render(model, view(c), new History()));
        assertEquals(-1, s.at("/cluster/leader").asInt());
        assertEquals("candidate", s.at("/cluster/members/0/role").asText());
        final String metrics = MetricsText.render(model, view(c));
        assertTrue(metrics.contains("chronex_cluster_has_leader 0\n"), metrics);
        assertFalse(metrics.contains("chronex_cluster_lag_bytes{"), "no leader, no lag: " + metrics);
    }

    @Test
    void aMemberShortOfDiskSaysSoInEveryFace() throws Exception {
        model.rollInterval();
        final ClusterView.Snapshot c = cluster(up(0, Cluster.Role.FOLLOWER, 3, 5_000, "ok"), up(1, Cluster.Role.LEADER, 3, 5_000, "ok"),
            up(2, Cluster.Role.FOLLOWER, 3, 5_000, "critical"));
        assertEquals(List.of("CLUSTER MEMBER 2 STORAGE CRITICAL"), StatusBlock.alerts(model, view(c)));
        final String block = StatusBlock.render(model, view(c));
        assertTrue(block.contains("  commit 5000  lag 0  elections 2  snapshots 1  storage ok\n"), block);
        assertTrue(block.contains("  commit 5000  lag 0  elections 2  snapshots 1  storage critical\n"), block);
        final JsonNode s = new ObjectMapper().readTree(StateJson.render(model, view(c), new History()));
        assertEquals("critical", s.at("/cluster/members/2/storage").asText());
        assertEquals("ok", s.at("/cluster/members/0/storage").asText());
    }

    @Test
    void aSingleHostMonitorShowsNoCluster() {
        model.rollInterval();
        final StatusBlock.View single = view(null);
        assertFalse(StatusBlock.render(model, single).contains("cluster"));
        assertFalse(MetricsText.render(model, single).contains("chronex_cluster"));
        assertFalse(StateJson.render(model, single, new History()).contains("\"cluster\""));
    }
}
