package io.chronex.gateway;

import io.chronex.gateway.session.ResendIndex;

import java.nio.charset.StandardCharsets;

/**
 * One configured FIX session and everything the gateway keeps about it, whether or not its client
 * is connected: sequence numbers in both directions, where each sent message is stored (for
 * resends), and, while logged on, its connection, heartbeat timing and throttle window.
 */
final class FixSession {
    final GatewayConfig.Session config;
    final String name;
    final byte[] senderCompId;
    final byte[] password;
    final long account;
    /** Slot in the session state file (the inbound sequence number lives there). */
    final int slot;

    /** The MsgSeqNum our next message to this client gets. */
    int nextOutbound = 1;
    /** Store index of the batch holding each message sent, by MsgSeqNum. */
    final ResendIndex sent;

    Connection connection;
    long heartbeatNanos;
    long lastReceivedNanos;
    long lastSentNanos;
    long testRequestSentNanos;
    boolean logoutSent;
    /** The MsgSeqNum that revealed a gap we asked to be resent; no second ResendRequest until it is reached. */
    long resendAskedThrough;

    /** Output flow ({@link OutboundFlow}): the MsgSeqNum of the next new message to go on the wire; below nextOutbound: behind. */
    int nextToWrite = 1;
    /** A resend in progress: resendNext..resendEnd still to go (none when resendNext is past resendEnd). */
    long resendBegin;
    long resendNext = 1;
    long resendEnd;
    /** The first of a run of session messages a resend turns into one gap fill (0: none pending). */
    long gapFrom;
    /** Messages resent so far by the resend in progress (for its log line). */
    long resent;

    long throttleWindow;
    int throttleCount;

    FixSession(final GatewayConfig.Session config, final int slot, final ResendIndex sent) {
        this.sent = sent;
        this.config = config;
        this.name = config.senderCompId();
        this.senderCompId = config.senderCompId().getBytes(StandardCharsets.US_ASCII);
        this.password = config.password() == null ? null : config.password().getBytes(StandardCharsets.US_ASCII);
        this.account = config.account();
        this.slot = slot;
    }

    boolean loggedOn() {
        return connection != null;
    }

    /** Forgets every message sent: after a sequence reset, MsgSeqNum starts again at 1. */
    void resetOutbound() {
        nextOutbound = 1;
        sent.clear();
    }

    /** Counts one application message against the per-second throttle; false when over it. */
    boolean admit(final long nowNanos) {
        final int limit = config.throttlePerSecond();
        if (limit == 0) {
            return true;
        }
        final long window = nowNanos / 1_000_000_000L;
        if (window != throttleWindow) {
            throttleWindow = window;
            throttleCount = 0;
        }
        return ++throttleCount <= limit;
    }
}
