package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.OutboundStore;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * The session layer's messages for real: built in the {@link Outbox} (so stored before they are
 * written, like every report), resends streamed by the {@link OutboundFlow}, connections closed by the
 * {@link Framer}.
 */
final class OutboxSessionProxy implements SessionProxy {
    private static final long SECOND = 1_000_000_000L;

    private final Outbox outbox;
    private final OutboundStore store;
    private final OutboundFlow flow;
    private final Framer framer;
    private final Gateway.Log log;
    private final byte[] compId;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder scratchEncoder = new FixEncoder(scratch);
    private final StringBuilder msgTypeText = new StringBuilder(2);

    long sessionRejects;
    long businessRejects;

    OutboxSessionProxy(final Outbox outbox, final OutboundStore store, final OutboundFlow flow, final Framer framer,
                       final String compId, final Gateway.Log log) {
        this.outbox = outbox;
        this.store = store;
        this.flow = flow;
        this.framer = framer;
        this.log = log;
        this.compId = compId.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void logon(final FixSession s, final long heartbeatSeconds, final boolean reset) {
        if (reset) {
            // Before the Logon (MsgSeqNum 1) is stored, so a restart rebuilds the numbering from here.
            store.markReset(s.account);
        }
        // From here on the session's output goes to this connection, starting with the Logon answer.
        flow.attach(s);
        final FixEncoder e = outbox.begin(s, FixMsgTypes.LOGON, System.currentTimeMillis());
        e.addLong(FixTags.ENCRYPT_METHOD, 0);
        e.addLong(FixTags.HEART_BT_INT, heartbeatSeconds);
        if (reset) {
            e.addBoolean(FixTags.RESET_SEQ_NUM_FLAG, true);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    @Override
    public void logout(final FixSession s, final String text) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.LOGOUT, System.currentTimeMillis());
        if (text != null) {
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
        final Connection c = s.connection;
        if (c != null && c.closeAtNanos == 0) {
            c.closeAtNanos = System.nanoTime() + 2 * SECOND;
        }
    }

    @Override
    public void heartbeat(final FixSession s, final DirectBuffer testReqId, final int offset, final int length) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.HEARTBEAT, System.currentTimeMillis());
        if (testReqId != null && length > 0) {
            e.addBytes(FixTags.TEST_REQ_ID, testReqId, offset, length);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    @Override
    public void testRequest(final FixSession s, final long testReqId) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.TEST_REQUEST, System.currentTimeMillis());
        e.addLong(FixTags.TEST_REQ_ID, testReqId);
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    @Override
    public void resendRequest(final FixSession s, final long beginSeqNo) {
        final FixEncoder e = outbox.begin(s, FixMsgTypes.RESEND_REQUEST, System.currentTimeMillis());
        e.addLong(FixTags.BEGIN_SEQ_NO, beginSeqNo);
        e.addLong(FixTags.END_SEQ_NO, 0);
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    @Override
    public void reject(final FixSession s, final long refSeqNum, final int refTag, final int refMsgType, final int reason,
                       final CharSequence text) {
        sessionRejects++;
        final FixEncoder e = outbox.begin(s, FixMsgTypes.REJECT, System.currentTimeMillis());
        e.addLong(FixTags.REF_SEQ_NUM, Math.max(0, refSeqNum));
        if (refTag > 0) {
            e.addLong(FixTags.REF_TAG_ID, refTag);
        }
        if (refMsgType != 0) {
            e.addAscii(FixTags.REF_MSG_TYPE, msgTypeText(refMsgType));
        }
        e.addLong(FixTags.SESSION_REJECT_REASON, reason);
        if (text != null) {
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    @Override
    public void businessReject(final FixSession s, final long refSeqNum, final int refMsgType, final int reason, final String text) {
        businessRejects++;
        final FixEncoder e = outbox.begin(s, FixMsgTypes.BUSINESS_MESSAGE_REJECT, System.currentTimeMillis());
        e.addLong(FixTags.REF_SEQ_NUM, refSeqNum);
        e.addAscii(FixTags.REF_MSG_TYPE, msgTypeText(refMsgType));
        e.addLong(FixTags.BUSINESS_REJECT_REASON, reason);
        e.addAscii(FixTags.TEXT, text);
        outbox.end(0, 0);
        outbox.commit(-1);
    }

    private CharSequence msgTypeText(final int msgType) {
        msgTypeText.setLength(0);
        msgTypeText.append((char) (msgType & 0xFF));
        if ((msgType >>> 8) != 0) {
            msgTypeText.append((char) ((msgType >>> 8) & 0xFF));
        }
        return msgTypeText;
    }

    @Override
    public void resend(final FixSession s, final long beginSeqNo, final long endSeqNo) {
        if (s.connection != null) {
            flow.resend(s.connection, s, beginSeqNo, endSeqNo);
        }
    }

    /** A Logout outside any session's sequence (MsgSeqNum 1, nothing stored), then the connection is closed. */
    @Override
    public void refuseLogon(final Connection c, final FixDecoder logon, final String why) {
        log.log("refused Logon from " + c.remote + ": " + why);
        final FixEncoder e = scratchEncoder.start(0, FixMsgTypes.LOGOUT);
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        if (logon.has(FixTags.SENDER_COMP_ID)) {
            e.addBytes(FixTags.TARGET_COMP_ID, logon.buffer(), logon.valueOffset(FixTags.SENDER_COMP_ID),
                logon.valueLength(FixTags.SENDER_COMP_ID));
        }
        e.addLong(FixTags.MSG_SEQ_NUM, 1);
        e.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        e.addAscii(FixTags.TEXT, why);
        final int length = e.finish();
        outbox.write(c, scratch, e.messageOffset(), length);
        c.closeAtNanos = System.nanoTime() + SECOND;
    }

    @Override
    public void disconnect(final FixSession s, final String why) {
        if (s.connection != null) {
            framer.drop(s.connection, why);
        }
    }

    @Override
    public void loggedOut(final FixSession s) {
        if (s.connection != null) {
            framer.close(s.connection, "logged out");
        }
    }

    @Override
    public void log(final String line) {
        log.log(line);
    }
}
