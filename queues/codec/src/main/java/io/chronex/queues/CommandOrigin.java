package io.chronex.queues;

/**
 * Where a command in a cluster node's journal came from: the gateway host's journal (its bridge's source id)
 * and the command's index there, and the position of the cluster's log after it, which tells a restarted
 * node which of the log's commands its own journal already holds.
 */
public final class CommandOrigin {
    /** The gateway host's bridge id (config/cluster.yaml); 0 when not from a cluster node's journal. */
    public int source;
    /** The command's index in that host's commands journal: the bridge's sequence, rising. */
    public long sequence;
    /** The cluster log's position just after the command. */
    public long logPosition;

    public CommandOrigin clear() {
        source = 0;
        sequence = 0;
        logPosition = 0;
        return this;
    }

    /** Sets all three; returns this. */
    public CommandOrigin set(final int source, final long sequence, final long logPosition) {
        this.source = source;
        this.sequence = sequence;
        this.logPosition = logPosition;
        return this;
    }
}
