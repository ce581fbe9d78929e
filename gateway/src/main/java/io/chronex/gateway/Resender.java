package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.OutboundStore;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Answers a client's ResendRequest from the outbound store: application messages again with
 * PossDupFlag=Y, OrigSendingTime and a new SendingTime; session messages (and anything no longer
 * stored) as SequenceReset-GapFill.
 */
final class Resender {
    private final OutboundStore store;
    private final Outbox outbox;
    private final Gateway.Log log;
    private final byte[] compId;
    /** Decodes stored messages, leaving the inbound message in the gateway's decoder alone. */
    private final FixDecoder stored = new FixDecoder();
    private final UnsafeBuffer resendBuffer;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder scratchEncoder = new FixEncoder(scratch);

    Resender(final OutboundStore store, final Outbox outbox, final String compId, final int maxMessageLength, final Gateway.Log log) {
        this.store = store;
        this.outbox = outbox;
        this.log = log;
        this.compId = compId.getBytes(StandardCharsets.US_ASCII);
        this.resendBuffer = new UnsafeBuffer(new byte[maxMessageLength * 4 + 1024]);
    }

    /** Resends begin..endAsked (0 = up to the last sent) to the session's connection. */
    void resend(final FixSession s, final long begin, final long endAsked) {
        long end = endAsked;
        final long last = s.nextOutbound - 1;
        if (end <= 0 || end > last) {
            end = last;
        }
        final Connection c = s.connection;
        long gapStart = 0;
        int resent = 0;
        for (long seq = begin; seq <= end && c.open; seq++) {
            final long storeIndex = s.sent.get(seq);
            final int length = storeIndex < 0 ? -1 : store.read(storeIndex, s.account, (int) seq, resendBuffer);
            final boolean admin = length < 0 || isAdmin(resendBuffer, length);
            if (admin) {
                if (gapStart == 0) {
                    gapStart = seq;
                }
                continue;
            }
            if (gapStart != 0) {
                gapFill(s, gapStart, seq);
                gapStart = 0;
            }
            resendOne(s, length);
            resent++;
        }
        if (gapStart != 0) {
            gapFill(s, gapStart, end + 1);
        }
        if (begin > end && begin <= last + 1 && c.open) {
            // Nothing to resend in that range: tell the client where we are.
            gapFill(s, begin, last + 1);
        }
        log.log("session " + s.name + " asked for a resend of " + begin + ".." + endAsked
            + ": " + resent + " messages resent, the rest gap-filled, up to " + end);
    }

    private boolean isAdmin(final UnsafeBuffer message, final int length) {
        if (stored.decode(message, 0, length) != FixDecoder.OK) {
            return true;
        }
        final int type = stored.msgType();
        return type == FixMsgTypes.HEARTBEAT || type == FixMsgTypes.TEST_REQUEST || type == FixMsgTypes.RESEND_REQUEST
            || type == FixMsgTypes.REJECT || type == FixMsgTypes.SEQUENCE_RESET || type == FixMsgTypes.LOGOUT
            || type == FixMsgTypes.LOGON;
    }

    /** The stored message (in the stored decoder) again: the same body with PossDupFlag=Y and OrigSendingTime. */
    private void resendOne(final FixSession s, final int length) {
        final FixEncoder e = scratchEncoder.start(0, stored.msgType());
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        e.addAscii(FixTags.TARGET_COMP_ID, s.senderCompId);
        e.addLong(FixTags.MSG_SEQ_NUM, stored.msgSeqNum());
        e.addBoolean(FixTags.POSS_DUP_FLAG, true);
        e.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        e.addBytes(FixTags.ORIG_SENDING_TIME, stored.buffer(), stored.valueOffset(FixTags.SENDING_TIME),
            stored.valueLength(FixTags.SENDING_TIME));
        for (int i = 0; i < stored.fieldCount(); i++) {
            final int tag = stored.tagAt(i);
            if (tag == FixTags.BEGIN_STRING || tag == FixTags.BODY_LENGTH || tag == FixTags.MSG_TYPE || tag == FixTags.SENDER_COMP_ID
                || tag == FixTags.TARGET_COMP_ID || tag == FixTags.MSG_SEQ_NUM || tag == FixTags.SENDING_TIME
                || tag == FixTags.CHECK_SUM || tag == FixTags.POSS_DUP_FLAG || tag == FixTags.ORIG_SENDING_TIME) {
                continue;
            }
            e.addBytes(tag, stored.buffer(), stored.valueOffset(tag), stored.valueLength(tag));
        }
        final int total = e.finish();
        outbox.write(s.connection, scratch, e.messageOffset(), total);
    }

    private void gapFill(final FixSession s, final long seq, final long newSeqNo) {
        final FixEncoder e = scratchEncoder.start(0, FixMsgTypes.SEQUENCE_RESET);
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        e.addAscii(FixTags.TARGET_COMP_ID, s.senderCompId);
        e.addLong(FixTags.MSG_SEQ_NUM, seq);
        e.addBoolean(FixTags.POSS_DUP_FLAG, true);
        e.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        e.addBoolean(FixTags.GAP_FILL_FLAG, true);
        e.addLong(FixTags.NEW_SEQ_NO, newSeqNo);
        final int total = e.finish();
        outbox.write(s.connection, scratch, e.messageOffset(), total);
    }
}
