package io.chronex.queues;

/**
 * Routing and per-hop timestamps that travel with a command and are copied into its result.
 * Hop times are System.nanoTime() (CLOCK_MONOTONIC, shared by every process on the host); the
 * receipt time is wall-clock nanoseconds since the epoch, for audit. 0 means "not recorded".
 */
public final class Hops {
    /** Which gateway appended the command (0 = not a gateway: an admin tool or bin/inject). */
    public int gatewayId;
    /** The gateway's session the command came from, so it can route the result back. */
    public long sessionId;
    /**
     * The sender's sequence number of the message the command came from (FIX MsgSeqNum), 0 if none; lets a restarted gateway find where
     * its sessions were.
     */
    public int clientSeqNum;
    public long gatewayReadNanos;
    public long gatewayAppendNanos;
    public long receiptEpochNanos;
    /** Set by the engine on the result: when it read the command, finished matching, began the append. */
    public long engineReadNanos;
    public long engineDoneNanos;
    public long engineAppendNanos;

    public Hops clear() {
        gatewayId = 0;
        sessionId = 0;
        clientSeqNum = 0;
        gatewayReadNanos = 0;
        gatewayAppendNanos = 0;
        receiptEpochNanos = 0;
        engineReadNanos = 0;
        engineDoneNanos = 0;
        engineAppendNanos = 0;
        return this;
    }
}
