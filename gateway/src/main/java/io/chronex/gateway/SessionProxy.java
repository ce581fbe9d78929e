package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import org.agrona.DirectBuffer;

/**
 * Everything the FIX session layer ({@link FixSession}) sends or does to its connection. The
 * gateway's implementation ({@link OutboxSessionProxy}) builds, stores and writes real messages; a
 * test can record the calls instead, so the session rules are checked without sockets or queues.
 * Each message-sending call takes the next outbound MsgSeqNum of the session.
 */
interface SessionProxy {
    /** The Logon that accepts the client's (ResetSeqNumFlag=Y echoed when it asked for a reset). */
    void logon(FixSession session, long heartbeatSeconds, boolean reset);

    /** A Logout, with a reason or null; the connection closes once it is written or the client answers. */
    void logout(FixSession session, String text);

    /** A Heartbeat: testReqId (may be null, length 0) echoes the TestRequest it answers. */
    void heartbeat(FixSession session, DirectBuffer testReqId, int offset, int length);

    void testRequest(FixSession session, long testReqId);

    /** ResendRequest from beginSeqNo to infinity (EndSeqNo 0). */
    void resendRequest(FixSession session, long beginSeqNo);

    /** A session Reject (35=3); refTag and refMsgType are left out when 0. */
    void reject(FixSession session, long refSeqNum, int refTag, int refMsgType, int reason, CharSequence text);

    /** A BusinessMessageReject (35=j). */
    void businessReject(FixSession session, long refSeqNum, int refMsgType, int reason, String text);

    /** Answers the client's ResendRequest for beginSeqNo..endSeqNo (0 = up to the last sent). */
    void resend(FixSession session, long beginSeqNo, long endSeqNo);

    /** Refuses the Logon in the decoder, on a connection that has no session: a Logout with the reason, then close. */
    void refuseLogon(Connection connection, FixDecoder logon, String why);

    /** Cuts the session's connection off now, logging why (a misbehaving or silent client). */
    void disconnect(FixSession session, String why);

    /** Closes the session's connection now: the Logout exchange is complete. */
    void loggedOut(FixSession session);

    /** A line for the gateway's log. */
    void log(String line);
}
