package io.chronex.runtime;

import io.aeron.AeronCounters;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A member's status answer: the consensus module's counters found by type id among a driver's counters, written as
 * key=value lines and read back; what a reader makes of an answer from another build, and of garbage.
 */
class MemberStatusTest {
    /** A driver's counters in memory, with the consensus module's allocated among others, as a member's driver has them. */
    static CountersManager counters(final long role, final long term, final long commit) {
        final CountersManager counters = new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024)));
        counters.allocate("bytes sent", 0);
        counters.setCounterValue(counters.allocate("role", AeronCounters.CLUSTER_NODE_ROLE_TYPE_ID), role);
        counters.setCounterValue(counters.allocate("state", AeronCounters.CLUSTER_CONSENSUS_MODULE_STATE_TYPE_ID),
            ConsensusModule.State.ACTIVE.code());
        counters.setCounterValue(counters.allocate("election", AeronCounters.CLUSTER_ELECTION_STATE_TYPE_ID),
            ElectionState.CLOSED.code());
        counters.setCounterValue(counters.allocate("term", AeronCounters.CLUSTER_LEADERSHIP_TERM_ID_TYPE_ID), term);
        counters.setCounterValue(counters.allocate("commit", AeronCounters.CLUSTER_COMMIT_POSITION_TYPE_ID), commit);
        counters.setCounterValue(counters.allocate("elections", AeronCounters.CLUSTER_ELECTION_COUNT_TYPE_ID), 2);
        return counters;
    }

    @Test
    void countersByTypeWrittenAndReadBack() {
        final ClusterCounters read = ClusterCounters.read(counters(Cluster.Role.LEADER.code(), 3, 12_345));
        assertEquals(new ClusterCounters(Cluster.Role.LEADER, ConsensusModule.State.ACTIVE, ElectionState.CLOSED, 3, 12_345, 2,
            ClusterCounters.NONE), read, "the snapshot counter is not allocated: -1");
        final MemberStatus status = new MemberStatus(1, read, 150, 4711, "low");
        assertEquals("member=1\nrole=leader\nstate=ACTIVE\nelection=CLOSED\nterm=3\ncommit_position=12345\nelections=2\n"
            + "snapshots=-1\napplied=150\npid=4711\nstorage=low\n", status.text());
        assertEquals(status, MemberStatus.parse(status.text()));
        // A member of an older build says nothing of its disk: read as not known.
        assertEquals("?", MemberStatus.parse("member=1 role=leader term=3 commit_position=1").storage());
        assertEquals("?", MemberStatus.parse("member=1 role=leader term=3 commit_position=1 storage=FULL!").storage());
        assertEquals(ClusterCounters.UNKNOWN, ClusterCounters.read(new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(4096)), new UnsafeBuffer(ByteBuffer.allocateDirect(1024)))), "a driver starting");
    }

    @Test
    void anAnswerFromAnotherBuild() {
        final MemberStatus s = MemberStatus.parse("member=2 role=follower state=SOME_NEW_STATE term=7 commit_position=99 colour=blue\r\n");
        assertEquals(2, s.member());
        assertEquals(Cluster.Role.FOLLOWER, s.counters().role());
        assertNull(s.counters().moduleState(), "a state this Aeron does not know reads as unknown");
        assertNull(s.counters().electionState(), "missing");
        assertEquals(7, s.counters().leadershipTermId());
        assertEquals(99, s.counters().commitPosition());
        assertEquals(-1, s.counters().snapshotCount());
        assertEquals(-1, s.applied());
        assertNull(MemberStatus.parse("member=0 role=? term=-1 commit_position=-1").counters().role());
    }

    @Test
    void garbageSaysWhat() {
        assertEquals("an empty answer", failure(" \n"));
        assertEquals("'<html><body>hello</body></html>' is not key=value", failure("<html><body>hello</body></html>"));
        assertEquals("no term=", failure("member=0 role=leader commit_position=1"));
        assertEquals("term='x?' is not a number", failure("member=0 role=leader term=x\u0007 commit_position=1"));
        assertEquals("member=-3 is not a member id", failure("member=-3 role=leader term=1 commit_position=1"));
        assertEquals("'" + "A".repeat(40) + "...' is not key=value", failure("A".repeat(100)));
    }

    private static String failure(final String text) {
        return assertThrows(IllegalArgumentException.class, () -> MemberStatus.parse(text)).getMessage();
    }
}
