package io.chronex.runtime;

import io.aeron.AeronCounters;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;
import org.agrona.concurrent.status.CountersReader;

/**
 * A cluster member's consensus-module counters (role, module state, election state, leadership term, commit position,
 * elections, snapshots), found by type id among a media driver's counters. One reading for both places that need it: a
 * member's status responder reads its own driver's, {@code bin/cluster-status --local} a driver's {@code cnc.dat} mapped
 * read-only. Enums are null and numbers {@link #NONE} when the counter is not there (a member starting) or holds a code
 * this Aeron does not know.
 */
public record ClusterCounters(Cluster.Role role, ConsensusModule.State moduleState, ElectionState electionState,
                              long leadershipTermId, long commitPosition, long electionCount, long snapshotCount) {
    /** Aeron's "no value". */
    public static final long NONE = -1;
    /** Nothing known. */
    public static final ClusterCounters UNKNOWN = new ClusterCounters(null, null, null, NONE, NONE, NONE, NONE);

    /**
     * Reads the counters now. Only reads (volatile loads of the driver's counter buffers), so any thread may call it while
     * the consensus module and the service run.
     */
    public static ClusterCounters read(final CountersReader counters) {
        return new ClusterCounters(
            role(value(counters, AeronCounters.CLUSTER_NODE_ROLE_TYPE_ID)),
            moduleState(value(counters, AeronCounters.CLUSTER_CONSENSUS_MODULE_STATE_TYPE_ID)),
            electionState(value(counters, AeronCounters.CLUSTER_ELECTION_STATE_TYPE_ID)),
            value(counters, AeronCounters.CLUSTER_LEADERSHIP_TERM_ID_TYPE_ID),
            value(counters, AeronCounters.CLUSTER_COMMIT_POSITION_TYPE_ID),
            value(counters, AeronCounters.CLUSTER_ELECTION_COUNT_TYPE_ID),
            value(counters, AeronCounters.CLUSTER_SNAPSHOT_COUNTER_TYPE_ID));
    }

    /**
     * The value of the first allocated counter of {@code typeId}, or {@link #NONE}. One cluster per driver here (each
     * member has its own directory), so the counters' cluster id is not looked at.
     */
    static long value(final CountersReader counters, final int typeId) {
        for (int i = 0, max = counters.maxCounterId(); i < max; i++) {
            final int state = counters.getCounterState(i);
            if (state == CountersReader.RECORD_UNUSED) {
                break;
            }
            if (state == CountersReader.RECORD_ALLOCATED && counters.getCounterTypeId(i) == typeId) {
                return counters.getCounterValue(i);
            }
        }
        return NONE;
    }

    /** "leader", "follower", "candidate" or "?". */
    public String roleName() {
        return role == null ? "?" : role.name().toLowerCase(java.util.Locale.ROOT);
    }

    static Cluster.Role role(final long code) {
        for (final Cluster.Role r : Cluster.Role.values()) {
            if (r.code() == code) {
                return r;
            }
        }
        return null;
    }

    static ConsensusModule.State moduleState(final long code) {
        for (final ConsensusModule.State s : ConsensusModule.State.values()) {
            if (s.code() == code) {
                return s;
            }
        }
        return null;
    }

    static ElectionState electionState(final long code) {
        for (final ElectionState s : ElectionState.values()) {
            if (s.code() == code) {
                return s;
            }
        }
        return null;
    }
}
