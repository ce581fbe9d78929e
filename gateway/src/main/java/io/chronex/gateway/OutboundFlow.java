package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.OutboundStore;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Output with flow control: the outbound store is the source of everything a session is sent. A
 * message goes straight into its connection's pending buffer only while the session is caught up;
 * once the buffer cannot take one, the session falls behind and the rest waits in the store, from
 * where {@link #drain} refills the buffer in MsgSeqNum order as the socket takes bytes. A
 * ResendRequest of any size is answered the same way, a buffer at a time (PossDupFlag and
 * OrigSendingTime for application messages, SequenceReset-GapFill for session ones), and newer
 * messages wait until it is done, so nothing overtakes on the wire. Nothing is ever dropped for
 * being large; a client that takes nothing at all is cut by the gateway's write-stall timer.
 */
final class OutboundFlow {
    /** Refill-and-write rounds per connection per loop pass, so one fast reader cannot hold up the others. */
    private static final int ROUNDS = 8;
    /** Room for the fields a resend adds (PossDupFlag, OrigSendingTime) and a SequenceReset. */
    private static final int RESEND_SPARE = 256;

    private final Framer framer;
    private final OutboundStore store;
    private final Gateway.Log log;
    private final byte[] compId;
    /** A stored message read back, and a view of it for the pending buffer. */
    private final UnsafeBuffer message;
    private final ByteBuffer messageView;
    private final FixDecoder stored = new FixDecoder();
    /** A resent message or a gap fill as built for the wire. */
    private final UnsafeBuffer out;
    private final ByteBuffer outView;
    private final FixEncoder encoder;

    /** Times a session fell behind (its pending buffer full); it catches up from the store. */
    long fellBehind;

    OutboundFlow(final Framer framer, final OutboundStore store, final String compId, final int maxMessageLength,
                 final Gateway.Log log) {
        this.framer = framer;
        this.store = store;
        this.log = log;
        this.compId = compId.getBytes(StandardCharsets.US_ASCII);
        final byte[] bytes = new byte[maxMessageLength * 4 + 1024];
        this.message = new UnsafeBuffer(bytes);
        this.messageView = ByteBuffer.wrap(bytes);
        final byte[] outBytes = new byte[bytes.length + RESEND_SPARE];
        this.out = new UnsafeBuffer(outBytes);
        this.outView = ByteBuffer.wrap(outBytes);
        this.encoder = new FixEncoder(out);
    }

    /** A session has just logged on: nothing is owed on this connection yet (what it missed comes by its ResendRequest). */
    void attach(final FixSession s) {
        s.nextToWrite = s.nextOutbound;
        s.resendNext = 1;
        s.resendEnd = 0;
        s.gapFrom = 0;
    }

    /**
     * A new message, already stored, for a connected session. It goes into the pending buffer only
     * when the session is caught up and the buffer has room; otherwise it waits in the store for
     * {@link #drain}, behind whatever is owed before it.
     *
     * @return true when it was queued for the socket now
     */
    boolean offer(final Connection c, final FixSession s, final int seq, final ByteBuffer view) {
        if (s.nextToWrite != seq || resending(s)) {
            return false;
        }
        if (c.send(view)) {
            s.nextToWrite = seq + 1;
            dirty(c);
            return true;
        }
        fellBehind++;
        c.backlog = true;
        dirty(c);
        return false;
    }

    private void dirty(final Connection c) {
        if (!c.dirty) {
            c.dirty = true;
            framer.toFlush(c);
        }
    }

    /** Answers a ResendRequest: begin..end (0 or past the last: up to the last sent), streamed by {@link #drain}. */
    void resend(final Connection c, final FixSession s, final long begin, final long endRequested) {
        final long last = s.nextOutbound - 1;
        final long end = endRequested <= 0 || endRequested > last ? last : endRequested;
        if (resending(s)) {
            log.log("session " + s.name + ": a new ResendRequest replaces the one in progress at " + s.resendNext);
        }
        s.resendBegin = Math.max(1, begin);
        s.resendNext = s.resendBegin;
        s.resendEnd = end;
        s.resent = 0;
        s.gapFrom = 0;
        if (s.resendBegin > end && s.resendBegin <= last + 1) {
            // Nothing to resend in that range: tell the client where we are.
            s.gapFrom = s.resendBegin;
            s.resendEnd = last;
        }
        if (s.resendBegin <= s.nextToWrite && end >= s.nextToWrite) {
            // Owed messages inside the range go out once, as part of the resend.
            s.nextToWrite = (int) end + 1;
        }
        log.log("session " + s.name + " asked for a resend of " + begin + ".." + endRequested + ": streaming up to " + end);
        c.backlog = true;
        dirty(c);
    }

    private static boolean resending(final FixSession s) {
        return s.resendNext <= s.resendEnd || s.gapFrom != 0;
    }

    /**
     * Writes what is pending and, while the socket takes it all, refills from the store what the
     * session is owed (a resend, then messages it fell behind on). Leaves OP_WRITE set while
     * anything is owed, so the next pass goes on.
     */
    void drain(final Connection c) throws IOException {
        c.flush();
        for (int round = 0; round < ROUNDS && c.open && c.backlog && c.pending.position() == 0; round++) {
            fill(c);
            c.flush();
        }
    }

    /** Fills the pending buffer from the store until it is full or the session is owed nothing. */
    private void fill(final Connection c) {
        final FixSession s = c.session;
        if (s == null) {
            c.backlog = false;
            return;
        }
        s.lastSentNanos = System.nanoTime();
        if (resending(s) && !fillResend(c, s)) {
            return;
        }
        while (s.nextToWrite < s.nextOutbound) {
            final int seq = s.nextToWrite;
            final int length = read(s, seq);
            final boolean queued;
            if (length < 0) {
                queued = gapFill(c, s, seq, seq + 1L);
            } else if (stored.decode(message, 0, length) == FixDecoder.OK) {
                // Sent for the first time, maybe long after it was built: SendingTime must say when (a client
                // checks it against its clock; QuickFIX/J rejects a message more than 2 minutes old).
                queued = copyOfStored(c, s, false);
            } else {
                queued = put(c, messageView, 0, length);
            }
            if (!queued) {
                return;
            }
            s.nextToWrite = seq + 1;
        }
        c.backlog = false;
    }

    /** The resend in progress, as far as the buffer takes it; true when it is done. */
    private boolean fillResend(final Connection c, final FixSession s) {
        while (s.resendNext <= s.resendEnd) {
            final long seq = s.resendNext;
            final int length = read(s, seq);
            if (length < 0 || isAdmin(length)) {
                // Session messages (and any the store cannot give back) become one gap fill per run.
                if (length >= 0 && isMarketData(stored.msgType()) && s.marketData != null) {
                    // A W, X or f the client may never have had on this connection: its books may have holes now.
                    s.marketData.gapFilled(s);
                }
                if (s.gapFrom == 0) {
                    s.gapFrom = seq;
                }
                s.resendNext++;
                continue;
            }
            if (s.gapFrom != 0) {
                if (!gapFill(c, s, s.gapFrom, seq)) {
                    return false;
                }
                s.gapFrom = 0;
            }
            if (!copyOfStored(c, s, true)) {
                return false;
            }
            s.resent++;
            s.resendNext++;
        }
        if (s.gapFrom != 0) {
            if (!gapFill(c, s, s.gapFrom, s.resendEnd + 1)) {
                return false;
            }
            s.gapFrom = 0;
        }
        log.log("session " + s.name + ": resend from " + s.resendBegin + " done: " + s.resent
            + " messages resent, the rest gap-filled, up to " + s.resendEnd);
        return true;
    }

    /** Reads the stored message with this MsgSeqNum into message; -1 when the store cannot give it back. */
    private int read(final FixSession s, final long seq) {
        final long storeIndex = s.sent.get(seq);
        return storeIndex < 0 ? -1 : store.read(storeIndex, s.sent.offset(seq), s.account, (int) seq, message);
    }

    /** Decodes the message read back (into stored) and says whether it is a session message. */
    private boolean isAdmin(final int length) {
        if (stored.decode(message, 0, length) != FixDecoder.OK) {
            return true;
        }
        final int type = stored.msgType();
        return type == FixMsgTypes.HEARTBEAT || type == FixMsgTypes.TEST_REQUEST || type == FixMsgTypes.RESEND_REQUEST
            || type == FixMsgTypes.REJECT || type == FixMsgTypes.SEQUENCE_RESET || type == FixMsgTypes.LOGOUT
            || type == FixMsgTypes.LOGON || isMarketData(type);
    }

    /**
     * Market data is gap-filled on a resend like the session messages, never sent again: a book resent from the store is stale
     * (later X would apply on top of it twice). A subscription of an earlier connection ended with it; one of this connection
     * is told ({@link FixSession.MarketData#gapFilled}) and gets a fresh W.
     */
    static boolean isMarketData(final int type) {
        return type == FixMsgTypes.MARKET_DATA_SNAPSHOT_FULL_REFRESH || type == FixMsgTypes.MARKET_DATA_INCREMENTAL_REFRESH
            || type == FixMsgTypes.MARKET_DATA_REQUEST_REJECT || type == FixMsgTypes.SECURITY_STATUS;
    }

    /**
     * The decoded stored message with a new SendingTime; as a resend (possDup) also with PossDupFlag=Y
     * and the original SendingTime as OrigSendingTime.
     */
    private boolean copyOfStored(final Connection c, final FixSession s, final boolean possDup) {
        final FixEncoder e = encoder.start(0, stored.msgType());
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        e.addAscii(FixTags.TARGET_COMP_ID, s.senderCompId);
        e.addLong(FixTags.MSG_SEQ_NUM, stored.msgSeqNum());
        if (possDup) {
            e.addBoolean(FixTags.POSS_DUP_FLAG, true);
        }
        e.addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
        if (possDup) {
            e.addBytes(FixTags.ORIG_SENDING_TIME, stored.buffer(), stored.valueOffset(FixTags.SENDING_TIME),
                stored.valueLength(FixTags.SENDING_TIME));
        }
        for (int i = 0; i < stored.fieldCount(); i++) {
            final int tag = stored.tagAt(i);
            if (tag == FixTags.BEGIN_STRING || tag == FixTags.BODY_LENGTH || tag == FixTags.MSG_TYPE || tag == FixTags.SENDER_COMP_ID
                || tag == FixTags.TARGET_COMP_ID || tag == FixTags.MSG_SEQ_NUM || tag == FixTags.SENDING_TIME
                || tag == FixTags.CHECK_SUM || tag == FixTags.POSS_DUP_FLAG || tag == FixTags.ORIG_SENDING_TIME) {
                continue;
            }
            e.addBytes(tag, stored.buffer(), stored.valueOffset(tag), stored.valueLength(tag));
        }
        final int length = e.finish();
        return put(c, outView, e.messageOffset(), length);
    }

    private boolean gapFill(final Connection c, final FixSession s, final long seq, final long newSeqNo) {
        final FixEncoder e = encoder.start(0, FixMsgTypes.SEQUENCE_RESET);
        e.addAscii(FixTags.SENDER_COMP_ID, compId);
        e.addAscii(FixTags.TARGET_COMP_ID, s.senderCompId);
        e.addLong(FixTags.MSG_SEQ_NUM, seq);
        e.addBoolean(FixTags.POSS_DUP_FLAG, true);
        final long now = System.currentTimeMillis();
        e.addUtcTimestamp(FixTags.SENDING_TIME, now);
        // Every PossDupFlag=Y message carries OrigSendingTime (FIX 4.4 test case 2): strict counterparties reject a gap fill
        // without it. It stands for messages never sent as themselves, so their original time is this one.
        e.addUtcTimestamp(FixTags.ORIG_SENDING_TIME, now);
        e.addBoolean(FixTags.GAP_FILL_FLAG, true);
        e.addLong(FixTags.NEW_SEQ_NO, newSeqNo);
        final int length = e.finish();
        return put(c, outView, e.messageOffset(), length);
    }

    /** Queues bytes if the pending buffer has room; false (nothing queued) when it is full. */
    private static boolean put(final Connection c, final ByteBuffer view, final int offset, final int length) {
        view.limit(offset + length).position(offset);
        return c.send(view);
    }
}
