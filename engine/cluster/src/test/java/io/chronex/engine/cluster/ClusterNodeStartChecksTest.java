package io.chronex.engine.cluster;

import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What bin/cluster-node refuses before it starts anything: a host that is not this one, another member's directory. */
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
}
