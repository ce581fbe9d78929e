package io.chronex.engine.cluster;

import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;

/** The clustered service a member runs ({@code bin/cluster-node --service}), as the member's status and main see it. */
public interface MemberService extends ClusteredService {
    /** Commands this run applied (the log's replay included); any thread. */
    long applied();

    /** This member's role as the service last heard it; any thread. */
    Cluster.Role role();

    /** Where the member's free disk space stands (ok, low, critical, exhausted; ? when it does not look); any thread. */
    default String storage() {
        return "?";
    }
}
