package io.chronex.queues.cluster;

import io.chronex.runtime.ConfigYaml;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The shipped cluster file loads into Aeron's member strings; every mistake names the file, the line and the reason. */
class ClusterConfigTest {
    @TempDir
    Path dir;

    @Test
    void theShippedFileDescribesThreeMembersOnThisHost() throws Exception {
        final ClusterConfig config = ClusterConfig.load(ProjectRoot.resolve("config").resolve("cluster.yaml"));
        assertEquals("0, 1, 2", config.ids());
        assertEquals("0,localhost:9010,localhost:9011,localhost:9012,localhost:9013,localhost:9014|"
            + "1,localhost:9020,localhost:9021,localhost:9022,localhost:9023,localhost:9024|"
            + "2,localhost:9030,localhost:9031,localhost:9032,localhost:9033,localhost:9034", config.clusterMembers());
        assertEquals("0=localhost:9010,1=localhost:9020,2=localhost:9030", config.ingressEndpoints());
        assertEquals(9025, config.member(1).statusPort());
        assertEquals(Path.of("/dev/shm/chronex-aeron/node-1"), config.aeronDirOf("node-1"));
        assertEquals(4 << 20, config.termLength());
        assertEquals(2_000, config.leaderHeartbeatTimeoutMs());
        assertEquals(200, config.leaderHeartbeatIntervalMs());
        assertEquals(200, config.electionTimeoutMs());
        assertEquals(10_000, config.sessionTimeoutMs());
        assertEquals(0, config.fileSyncLevel());
    }

    @Test
    void defaultsAndARelativeAeronDirectory() throws Exception {
        final ClusterConfig config = ClusterConfig.load(Files.writeString(dir.resolve("c.yaml"),
            "members:\n  - {id: 5, basePort: 7000}\naeronDir: shm\n"));
        assertEquals("5=localhost:7000", config.ingressEndpoints());
        assertEquals(dir.resolve("shm").resolve("bridge-1").toAbsolutePath(), config.aeronDirOf("bridge-1"));
        assertEquals(4 << 20, config.termLength());
        assertEquals(200, config.leaderHeartbeatIntervalMs(), "a tenth of the 2 s timeout");
        assertEquals(ClusterConfig.DEFAULT_ELECTION_TIMEOUT_MS, config.electionTimeoutMs());
    }

    private String failure(final String yaml) throws IOException {
        final Path file = Files.writeString(dir.resolve("bad.yaml"), yaml);
        return assertThrows(ConfigYaml.ConfigException.class, () -> ClusterConfig.load(file)).getMessage().replace(file.toString(), "F");
    }

    @Test
    void mistakesNameFileLineAndReason() throws IOException {
        assertEquals("F:1: 'members' is missing: the nodes of the cluster, each {id, host, basePort}", failure("aeronDir: /tmp\n"));
        assertEquals("F:3: member id 0 appears twice",
            failure("members:\n  - {id: 0, basePort: 9000}\n  - {id: 0, basePort: 9100}\n"));
        assertEquals("F:3: member 1's ports overlap another member's on localhost (each uses basePort .. basePort+5)",
            failure("members:\n  - {id: 0, basePort: 9000}\n  - {id: 1, basePort: 9003}\n"));
        assertEquals("F:3: member 1's ports overlap another member's on localhost (each uses basePort .. basePort+5)",
            failure("members:\n  - {id: 0, basePort: 9000}\n  - {id: 1, basePort: 9005}\n"), "the status port counts too");
        assertEquals("F:2: basePort must be 1..65529 (a member uses 6 ports from it), found 65530",
            failure("members:\n  - {id: 0, basePort: 65530}\n"));
        assertEquals("F:2: host 'a,b' is not a host name or address", failure("members:\n  - {id: 0, host: 'a,b', basePort: 9000}\n"));
        assertEquals("F:3: termLength must be a power of two from 64KiB to 1GiB, found 100000",
            failure("members:\n  - {id: 0, basePort: 9000}\ntermLength: 100000\n"));
        assertEquals("F:3: leaderHeartbeatTimeoutMs must be 200..600000, found 50",
            failure("members:\n  - {id: 0, basePort: 9000}\nleaderHeartbeatTimeoutMs: 50\n"));
        assertEquals("F:4: leaderHeartbeatIntervalMs must be 1..250, found 300", failure(
            "members:\n  - {id: 0, basePort: 9000}\nleaderHeartbeatTimeoutMs: 1000\nleaderHeartbeatIntervalMs: 300\n"),
            "a heartbeat interval that leaves less than four heartbeats to the timeout");
        assertEquals("F:3: electionTimeoutMs must be 150..60000, found 100",
            failure("members:\n  - {id: 0, basePort: 9000}\nelectionTimeoutMs: 100\n"));
        assertEquals("F:2: 'basePort' is missing", failure("members:\n  - {id: 0}\n"));
        assertEquals("F:3: fileSyncLevel must be 0..2, found 3", failure("members:\n  - {id: 0, basePort: 9000}\nfileSyncLevel: 3\n"));
    }
}
