package io.chronex.monitor;

import io.chronex.queues.cluster.ClusterConfig;

/** Where bin/cluster-status and bin/monitor --cluster get the members' state: over the network, or this host's driver files. */
public interface ClusterReader {
    /** The cluster file read. */
    ClusterConfig config();

    /** Every member of the file, now; never throws for a member that cannot be read (it reads as down or absent). */
    ClusterView.Snapshot read();
}
