package io.chronex.engine.cluster;

import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What bin/cluster-node refuses before it starts anything: a host that is not this one, another member's directory, a
 * configuration other than the one its journal records.
 */
class ClusterNodeStartChecksTest {
    @TempDir
    Path tmp;

    private ClusterConfig cluster(final String host) throws Exception {
        return ClusterConfig.load(Files.writeString(tmp.resolve("cluster.yaml"),
            "members:\n  - {id: 0, host: localhost, basePort: 9010}\n  - {id: 1, host: " + host + ", basePort: 9020}\n"));
    }

    @Test
    void aMemberWhoseHostIsNotThisOneIsRefused() throws Exception {
        ClusterNodeMain.checkHostIsHere(cluster("127.0.0.1"), 0);
        ClusterNodeMain.checkHostIsHere(cluster("127.0.0.1"), 1);
        // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): documentation only, never an interface's address.
        final Args.UsageException wrong = assertThrows(Args.UsageException.class,
            () -> ClusterNodeMain.checkHostIsHere(cluster("203.0.113.7"), 1));
        assertTrue(wrong.getMessage().contains("member 1's host '203.0.113.7' (203.0.113.7) is not an address of this host"),
            wrong.getMessage());
        assertThrows(Args.UsageException.class, () -> ClusterNodeMain.checkHostIsHere(cluster("no-such-host.invalid"), 1));
    }

    @Test
    void anotherMembersDirectoryIsRefusedAndTheFirstStartNamesIt() throws Exception {
        final Path dir = tmp.resolve("node-0");
        ClusterNodeMain.checkDirectoryIsMine(dir, 0);
        assertEquals("0", Files.readString(ClusterNode.clusterDir(dir).resolve(ClusterNodeMain.MEMBER_FILE)).strip());
        ClusterNodeMain.checkDirectoryIsMine(dir, 0);
        final Args.UsageException other = assertThrows(Args.UsageException.class, () -> ClusterNodeMain.checkDirectoryIsMine(dir, 2));
        assertTrue(other.getMessage().contains("is member 0's data directory"), other.getMessage());
    }

    @Test
    void aConfigurationOtherThanTheJournalsIsRefused() throws Exception {
        final Path file = ProjectRoot.resolve("config/engine.yaml");
        final EngineConfig shipped = EngineConfigFile.load(file);
        final DataDirectory fresh = DataDirectory.open(tmp.resolve("fresh"));
        ClusterNodeMain.checkConfiguration(fresh, shipped, file); // an empty journal records nothing yet

        final DataDirectory same = DataDirectory.open(tmp.resolve("same"));
        try (NodeJournal journal = new NodeJournal(same)) {
            journal.recordConfigurationIfFirst(EngineConfigFile.text(shipped), 1_000);
        }
        ClusterNodeMain.checkConfiguration(same, shipped, file);

        final DataDirectory other = DataDirectory.open(tmp.resolve("other"));
        try (NodeJournal journal = new NodeJournal(other)) {
            journal.recordConfigurationIfFirst(EngineConfigFile.text(shipped).replace("ACME", "ACMX"), 1_000);
        }
        final Args.UsageException refused = assertThrows(Args.UsageException.class,
            () -> ClusterNodeMain.checkConfiguration(other, shipped, file));
        assertTrue(refused.getMessage().contains("is not the configuration"), refused.getMessage());
    }
}
