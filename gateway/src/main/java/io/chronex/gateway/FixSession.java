package io.chronex.gateway;

import io.chronex.gateway.core.Throttle;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.fix.FixValidator;
import io.chronex.gateway.session.ResendIndex;
import io.chronex.gateway.session.SessionStateFile;

import java.nio.charset.StandardCharsets;

/**
 * One configured FIX session and its FIX 4.4 session rules: logon checks, sequence numbers in both
 * directions, gaps and resends, SequenceReset, Logout, heartbeats and the TestRequest watch. It
 * decides; what it sends goes through a {@link SessionProxy}, and application messages in sequence
 * go to an {@link Application}, so the rules run (and are unit-tested) without sockets or queues.
 * The state lives here whether or not the client is connected.
 */
final class FixSession {
    /** HeartBtInt (108) a Logon may ask for, in seconds: every session is watched, none for longer than 5 minutes. */
    static final int MIN_HEARTBEAT_SECONDS = 1;
    static final int MAX_HEARTBEAT_SECONDS = 300;
    private static final long SECOND = 1_000_000_000L;
    /** How long the line must be quiet, after a gap closed below a dropped message, before that message is asked for again. */
    private static final long DROPPED_ASK_AFTER_NANOS = 50_000_000L;

    /** Where the session layer hands application messages that arrived in sequence. */
    interface Application {
        /**
         * An order-entry message (or a CollateralInquiry, journalled as orders are) with the expected MsgSeqNum, in the
         * decoder. The session counts it as received when this returns, so whatever it journals is journalled first.
         */
        void onOrderEntry(FixSession session, FixDecoder message, int msgType, long seq);

        /** The journal's last index now (-1 if empty): a sequence reset marks it, see {@link SessionStateFile#reset}. */
        long journalEnd();
    }

    /** Where a MarketDataRequest (V) in sequence goes (the gateway's market data); null: answered as not supported. */
    interface MarketData {
        void onRequest(FixSession session, FixDecoder message);

        /** A resend turned a market-data message into a gap fill: the session's subscriptions need a fresh W. */
        void gapFilled(FixSession session);
    }

    final GatewayConfig.Session config;
    /** The session's requests per second (core: the same limit on every way in). */
    private final Throttle throttle;
    final String name;
    final byte[] senderCompId;
    final byte[] password;
    /**
     * The one answer to a Logon that has not proven who it is (an unknown SenderCompID, a wrong password, a CompID or address
     * slowed down after failures): it tells a guesser nothing. docs/gateway.md, "Logon failures".
     */
    static final String LOGON_REFUSED = "Logon refused: unknown SenderCompID or wrong password, or too many failed logons;"
        + " wait and try again";
    /** Whether the last Logon was refused for its password (the gateway counts those against the CompID and the address). */
    boolean refusedCredentials;
    final long account;
    /** Slot in the session state file (the inbound sequence number lives there). */
    final int slot;
    /** Store index of the batch holding each message sent, by MsgSeqNum. */
    final ResendIndex sent;
    private final SessionStateFile state;
    private final byte[] compId;
    private SessionProxy proxy;
    private Application application;
    /** Set by the gateway before the first message. */
    MarketData marketData;

    /** This session's slot in the gateway's published sessions file ({@code gateways/N/sessions}). */
    int publishedSlot;

    /** The MsgSeqNum our next message to this client gets. */
    int nextOutbound = 1;

    Connection connection;
    long heartbeatNanos;
    long lastReceivedNanos;
    long lastSentNanos;
    long testRequestSentNanos;
    boolean logoutSent;
    /** The MsgSeqNum that revealed a gap we asked to be resent; no second ResendRequest until it is reached. */
    long resendAskedThrough;
    /**
     * The highest MsgSeqNum dropped because a gap was open (0: none). A client may send a message while it works out the
     * resend we asked for, and its resend can end before that message: then the gap closes below a number we saw and let
     * go, and only the client's next message would tell us. {@link #onTimer} asks for it again once the line is quiet.
     */
    long droppedThrough;

    /** Output flow ({@link OutboundFlow}): the MsgSeqNum of the next new message to go on the wire; below nextOutbound: behind. */
    int nextToWrite = 1;
    /** The MsgSeqNum after the last one stored in the outbound store (0 before the first this run): not the batch being built. */
    int nextStored;
    /** A resend in progress: resendNext..resendEnd still to go (none when resendNext is past resendEnd). */
    long resendBegin;
    long resendNext = 1;
    long resendEnd;
    /** The first of a run of session messages a resend turns into one gap fill (0: none pending). */
    long gapFrom;
    /** Messages resent so far by the resend in progress (for its log line). */
    long resent;

    /** How far a message's SendingTime (52) may be from the gateway's clock, in milliseconds; 0: not checked. */
    long sendingTimeToleranceMillis = GatewayConfig.DEFAULT_SENDING_TIME_TOLERANCE_SECONDS * 1000L;
    /** Garbled messages ignored on this connection (the first few are logged). */
    int garbled;
    /** Every message in sequence, and the Logon, checked against the FIX 4.4 dictionary; null: not checked (unit tests of other rules). */
    FixValidator validator;

    FixSession(final GatewayConfig.Session config, final String compId, final SessionStateFile state, final ResendIndex sent) {
        this.config = config;
        this.throttle = new Throttle(config.throttlePerSecond());
        this.name = config.senderCompId();
        this.senderCompId = config.senderCompId().getBytes(StandardCharsets.US_ASCII);
        this.password = config.password() == null ? null : config.password().getBytes(StandardCharsets.US_ASCII);
        this.account = config.account();
        this.compId = compId.getBytes(StandardCharsets.US_ASCII);
        this.state = state;
        this.slot = state.slot(config.senderCompId());
        this.sent = sent;
    }

    /** Connects the rules to what they drive; done once, before the first message. */
    void wire(final SessionProxy proxy, final Application application) {
        this.proxy = proxy;
        this.application = application;
    }

    boolean loggedOn() {
        return connection != null;
    }

    /** The MsgSeqNum expected next from the client (kept in the memory-mapped state file). */
    long expectedInbound() {
        return state.expectedInbound(slot);
    }

    void expectedInbound(final long seq) {
        state.expectedInbound(slot, seq);
    }

    /** Whether the state file says a client was logged on when the gateway last stopped (it died with it connected). */
    boolean leftConnected() {
        return state.connected(slot);
    }

    /** A disconnect has been dealt with (its cancel on disconnect journalled): nothing to redo on the next start. */
    void disconnected() {
        state.connected(slot, false);
    }

    /** The message numbered seq is in the outbound store (appended): recorded for the start-up check against the store. */
    void stored(final int seq) {
        state.lastStoredOutbound(slot, seq);
        nextStored = seq + 1;
    }

    /** Forgets every message sent: after a sequence reset, MsgSeqNum starts again at 1. */
    void resetOutbound() {
        nextOutbound = 1;
        nextStored = 0;
        sent.clear();
    }

    /** Counts one application message against the per-second throttle; false when over it. */
    boolean admit(final long nowNanos) {
        return throttle.admit(nowNanos);
    }

    // ------------------------------------------------------------------ logon

    /**
     * A Logon naming this session arrived on a connection without one. Accepted: the connection is
     * this session's from now on and the Logon is answered. Refused: a Logout saying why.
     *
     * @return whether the logon was accepted
     */
    boolean onLogon(final Connection c, final FixDecoder logon, final long nowNanos, final long nowEpochMillis) {
        final String why = logonRefusal(logon, nowEpochMillis);
        if (why != null) {
            proxy.refuseLogon(c, logon, why);
            return false;
        }
        final long heartbeat = logon.longValue(FixTags.HEART_BT_INT);
        final boolean reset = logon.booleanValue(FixTags.RESET_SEQ_NUM_FLAG);
        final long seq = logon.msgSeqNum();
        if (reset) {
            state.reset(slot, application.journalEnd());
            resetOutbound();
        }
        final long expected = expectedInbound();
        if (seq < expected) {
            proxy.refuseLogon(c, logon, "MsgSeqNum too low, expecting " + expected + " but received " + seq);
            return false;
        }
        c.session = this;
        connection = c;
        // Before the Logon is answered: a gateway killed from here on cancels on disconnect when it restarts.
        state.connected(slot, true);
        heartbeatNanos = heartbeat * SECOND;
        lastReceivedNanos = nowNanos;
        lastSentNanos = nowNanos;
        testRequestSentNanos = 0;
        logoutSent = false;
        resendAskedThrough = 0;
        droppedThrough = 0;
        garbled = 0;
        proxy.logon(this, heartbeat, reset);
        proxy.log("session " + name + " logged on from " + c.remote + (reset ? " (sequence numbers reset)" : "")
            + ": next in " + expected + ", client sent " + seq + ", next out " + nextOutbound);
        if (seq > expected) {
            askForResend(expected, seq);
        } else {
            expectedInbound(expected + 1);
        }
        return true;
    }

    /**
     * Why this Logon cannot be accepted, or null. The password comes first, and its refusal is {@link #LOGON_REFUSED}, the
     * words an unknown SenderCompID gets too: nothing a client is told before it has proven who it is may say whether the
     * CompID exists (the log has the real reason).
     */
    private String logonRefusal(final FixDecoder logon, final long nowEpochMillis) {
        refusedCredentials = password != null && !logon.valueEquals(FixTags.PASSWORD, password);
        if (refusedCredentials) {
            proxy.log("session " + name + ": wrong or missing password (554) in a Logon");
            return LOGON_REFUSED;
        }
        if (!logon.valueEquals(FixTags.TARGET_COMP_ID, compId)) {
            return "TargetCompID must be " + new String(compId, StandardCharsets.US_ASCII);
        }
        if (connection != null) {
            return "session " + name + " is already logged on from another connection";
        }
        final long heartbeat = logon.longValue(FixTags.HEART_BT_INT);
        // 0 would switch off every liveness check: a silent client would hold its session for ever.
        if (heartbeat < MIN_HEARTBEAT_SECONDS || heartbeat > MAX_HEARTBEAT_SECONDS) {
            return "HeartBtInt (108) must be " + MIN_HEARTBEAT_SECONDS + ".." + MAX_HEARTBEAT_SECONDS + " seconds";
        }
        if (logon.booleanValue(FixTags.RESET_SEQ_NUM_FLAG) && logon.msgSeqNum() != 1) {
            return "a Logon with ResetSeqNumFlag=Y must have MsgSeqNum 1";
        }
        if (!sendingTimeAccurate(logon, nowEpochMillis)) {
            return sendingTimeProblem(logon, nowEpochMillis);
        }
        if (validator != null) {
            final int problem = validator.validate(logon);
            if (problem != FixDecoder.OK) {
                return "invalid Logon: " + validator.text() + " (SessionRejectReason " + problem + ", tag " + validator.refTag() + ")";
            }
        }
        return null;
    }

    /** Whether SendingTime (52) is within the tolerance of the gateway's clock (FIX 4.4 test case 2, SendingTime accuracy). */
    private boolean sendingTimeAccurate(final FixDecoder message, final long nowEpochMillis) {
        return sendingTimeToleranceMillis == 0
            || Math.abs(message.sendingTimeMillis() - nowEpochMillis) <= sendingTimeToleranceMillis;
    }

    private String sendingTimeProblem(final FixDecoder message, final long nowEpochMillis) {
        return "SendingTime accuracy problem: SendingTime (52) " + message.stringValue(FixTags.SENDING_TIME) + " is "
            + Math.abs(message.sendingTimeMillis() - nowEpochMillis) / 1000 + " s from the gateway's clock"
            + " (tolerance " + sendingTimeToleranceMillis / 1000 + " s)";
    }

    // ------------------------------------------------------------------ messages after the Logon

    /**
     * A message on this session's connection; status is what the decoder said of it (never {@link FixDecoder#GARBLED}:
     * a garbled message is ignored before it gets here). The order of the checks is the specification's: the frame and
     * the header first (BeginString, MsgSeqNum present, CompIDs, SendingTime, PossDupFlag with OrigSendingTime), then
     * the sequence number, then the message.
     */
    void onMessage(final FixDecoder message, final int status, final long nowNanos, final long nowEpochMillis) {
        lastReceivedNanos = nowNanos;
        testRequestSentNanos = 0;
        final long expected = expectedInbound();
        if (status == FixDecoder.WRONG_BEGIN_STRING) {
            logout("Incorrect BeginString " + message.stringValue(FixTags.BEGIN_STRING) + ": this session is FIX.4.4");
            return;
        }
        if (status == FixDecoder.REQUIRED_TAG_MISSING && message.rejectRefTag() == FixTags.MSG_SEQ_NUM) {
            // Without its number a message cannot be placed in the sequence: the specification ends the session.
            logout("MsgSeqNum (34) is missing");
            return;
        }
        if (status != FixDecoder.OK) {
            rejectMalformed(message, status, expected);
            return;
        }
        final int msgType = message.msgType();
        final long seq = message.msgSeqNum();
        if (!message.valueEquals(FixTags.SENDER_COMP_ID, senderCompId) || !message.valueEquals(FixTags.TARGET_COMP_ID, compId)) {
            proxy.reject(this, seq, FixTags.SENDER_COMP_ID, msgType, 9, "CompID problem");
            countIfExpected(seq, expected);
            logout("SenderCompID/TargetCompID do not match the session");
            return;
        }
        if (!sendingTimeAccurate(message, nowEpochMillis)) {
            proxy.reject(this, seq, FixTags.SENDING_TIME, msgType, 10, sendingTimeProblem(message, nowEpochMillis));
            countIfExpected(seq, expected);
            logout("SendingTime accuracy problem");
            return;
        }
        if (msgType == FixMsgTypes.LOGON && message.booleanValue(FixTags.RESET_SEQ_NUM_FLAG)) {
            resetInSession(message);
        } else if (msgType == FixMsgTypes.SEQUENCE_RESET && !message.booleanValue(FixTags.GAP_FILL_FLAG)) {
            sequenceReset(message, expected);
        } else if (message.booleanValue(FixTags.POSS_DUP_FLAG) && !origSendingTimeAccepted(message, msgType, seq, expected)) {
            return;
        } else if (seq > expected) {
            onSequenceGap(message, msgType, expected, seq);
        } else if (seq < expected) {
            if (!message.booleanValue(FixTags.POSS_DUP_FLAG)) {
                logout("MsgSeqNum too low, expecting " + expected + " but received " + seq);
            }
        } else {
            onInSequence(message, msgType, seq, expected);
        }
    }

    /**
     * A PossDupFlag=Y message must carry OrigSendingTime (122) no later than its SendingTime (FIX 4.4 test case 2, its two
     * PossDupFlag items): otherwise a Reject, and for a time that goes backwards a Logout too.
     */
    private boolean origSendingTimeAccepted(final FixDecoder message, final int msgType, final long seq, final long expected) {
        if (!message.has(FixTags.ORIG_SENDING_TIME)) {
            proxy.reject(this, seq, FixTags.ORIG_SENDING_TIME, msgType, FixDecoder.REQUIRED_TAG_MISSING,
                "OrigSendingTime (122) is required with PossDupFlag=Y");
            countIfExpected(seq, expected);
            return false;
        }
        final long original = message.utcTimestampMillis(FixTags.ORIG_SENDING_TIME);
        if (original == Long.MIN_VALUE) {
            proxy.reject(this, seq, FixTags.ORIG_SENDING_TIME, msgType, FixDecoder.INCORRECT_DATA_FORMAT,
                "OrigSendingTime (122) is not YYYYMMDD-HH:MM:SS[.sss]");
            countIfExpected(seq, expected);
            return false;
        }
        if (original > message.sendingTimeMillis()) {
            proxy.reject(this, seq, FixTags.ORIG_SENDING_TIME, msgType, 10, "OrigSendingTime (122) is later than SendingTime (52)");
            countIfExpected(seq, expected);
            logout("SendingTime accuracy problem");
            return false;
        }
        return true;
    }

    /**
     * A message answered with a Reject uses up its number when it was the expected one (and only then). The gap asked
     * for may not close as planned then (a rejected gap fill moves the number by one, not to its NewSeqNo), so the next
     * message ahead of the sequence asks again rather than waiting for a resend that already ended.
     */
    private void countIfExpected(final long seq, final long expected) {
        if (seq == expected) {
            expectedInbound(expected + 1);
            resendAskedThrough = 0;
        }
    }

    /**
     * A Logon with ResetSeqNumFlag=Y on a logged-on session (FIX 4.4: "sequence reset in session"): both directions start
     * again at 1, answered with a Logon carrying ResetSeqNumFlag=Y as MsgSeqNum 1.
     */
    private void resetInSession(final FixDecoder logon) {
        final long heartbeat = logon.longValue(FixTags.HEART_BT_INT);
        if (logon.msgSeqNum() != 1) {
            logout("a Logon with ResetSeqNumFlag=Y must have MsgSeqNum 1");
            return;
        }
        if (heartbeat < MIN_HEARTBEAT_SECONDS || heartbeat > MAX_HEARTBEAT_SECONDS) {
            logout("HeartBtInt (108) must be " + MIN_HEARTBEAT_SECONDS + ".." + MAX_HEARTBEAT_SECONDS + " seconds");
            return;
        }
        state.reset(slot, application.journalEnd());
        resetOutbound();
        heartbeatNanos = heartbeat * SECOND;
        resendAskedThrough = 0;
        proxy.logon(this, heartbeat, true);
        expectedInbound(2);
        proxy.log("session " + name + ": sequence numbers reset in session by the client's Logon (ResetSeqNumFlag=Y)");
    }

    /** A message that does not decode uses up its sequence number only when it had the expected one. */
    private void rejectMalformed(final FixDecoder message, final int status, final long expected) {
        final long seq = message.msgSeqNum();
        proxy.reject(this, seq > 0 ? seq : expected, message.rejectRefTag(), message.msgType(), status, message.rejectText());
        countIfExpected(seq, expected);
    }

    /** Messages were missed: ask for them once, but still answer a ResendRequest and a Logout. */
    private void onSequenceGap(final FixDecoder message, final int msgType, final long expected, final long seq) {
        droppedThrough = Math.max(droppedThrough, seq);
        if (msgType == FixMsgTypes.RESEND_REQUEST) {
            answerResendRequest(message);
        }
        if (resendAskedThrough < expected) {
            askForResend(expected, seq);
        }
        if (msgType == FixMsgTypes.LOGOUT) {
            // As in sequence: the answer (after the ResendRequest) is written before the connection closes.
            if (logoutSent) {
                proxy.loggedOut(this);
            } else {
                logout("logout acknowledged");
            }
        }
    }

    /** A message with the expected MsgSeqNum: handled, and the next one is expected. */
    private void onInSequence(final FixDecoder message, final int msgType, final long seq, final long expected) {
        if (validator != null) {
            // FIX 4.4 test case 14: a message with an invalid field is rejected with the reason, and its number used up.
            final int problem = validator.validate(message);
            if (problem != FixDecoder.OK) {
                proxy.reject(this, seq, validator.refTag(), msgType, problem, validator.text());
                countIfExpected(seq, expected);
                return;
            }
        }
        switch (msgType) {
            case FixMsgTypes.NEW_ORDER_SINGLE, FixMsgTypes.ORDER_CANCEL_REQUEST, FixMsgTypes.ORDER_CANCEL_REPLACE_REQUEST,
                FixMsgTypes.ORDER_MASS_CANCEL_REQUEST, FixMsgTypes.COLLATERAL_INQUIRY -> application.onOrderEntry(this, message, msgType,
                seq);
            case FixMsgTypes.MARKET_DATA_REQUEST -> {
                if (marketData != null) {
                    marketData.onRequest(this, message);
                } else {
                    proxy.businessReject(this, seq, msgType, 3, "MsgType not supported by this gateway");
                }
            }
            case FixMsgTypes.HEARTBEAT, FixMsgTypes.REJECT -> {
            }
            case FixMsgTypes.TEST_REQUEST -> {
                final boolean has = message.has(FixTags.TEST_REQ_ID);
                proxy.heartbeat(this, message.buffer(), has ? message.valueOffset(FixTags.TEST_REQ_ID) : 0,
                    has ? message.valueLength(FixTags.TEST_REQ_ID) : 0);
            }
            case FixMsgTypes.RESEND_REQUEST -> answerResendRequest(message);
            case FixMsgTypes.SEQUENCE_RESET -> {
                onGapFill(message, seq, expected);
                return;
            }
            case FixMsgTypes.LOGOUT -> {
                expectedInbound(expected + 1);
                if (logoutSent) {
                    proxy.loggedOut(this);
                } else {
                    // The answer goes out at the end of this pass, and the connection closes once it is
                    // written (or 2 s later if the client stops reading): closing now would drop it.
                    logout(null);
                    proxy.log("session " + name + " logged out");
                }
                return;
            }
            case FixMsgTypes.LOGON -> {
                expectedInbound(expected + 1);
                logout("already logged on");
                return;
            }
            default -> {
                if (isApplicationType(msgType)) {
                    proxy.businessReject(this, seq, msgType, 3, "MsgType not supported by this gateway");
                } else {
                    proxy.reject(this, seq, FixTags.MSG_TYPE, msgType, 11, "invalid MsgType");
                }
            }
        }
        expectedInbound(expected + 1);
    }

    private void answerResendRequest(final FixDecoder message) {
        proxy.resend(this, Math.max(1, message.longValue(FixTags.BEGIN_SEQ_NO)), message.longValue(FixTags.END_SEQ_NO));
    }

    /** SequenceReset-GapFill in sequence: jumps to NewSeqNo, which may only go up. */
    private void onGapFill(final FixDecoder message, final long seq, final long expected) {
        final long next = message.longValue(FixTags.NEW_SEQ_NO);
        if (next > expected) {
            expectedInbound(next);
        } else {
            proxy.reject(this, seq, FixTags.NEW_SEQ_NO, FixMsgTypes.SEQUENCE_RESET, 5, "NewSeqNo " + next + " is not above " + expected);
            countIfExpected(seq, expected);
        }
    }

    /** SequenceReset-Reset (any MsgSeqNum): the next expected becomes NewSeqNo, which may not go back. */
    private void sequenceReset(final FixDecoder message, final long expected) {
        final long next = message.longValue(FixTags.NEW_SEQ_NO);
        if (next < expected) {
            // Reason 5 (value out of range) on NewSeqNo; RefSeqNum is the message's own number, whatever it is.
            proxy.reject(this, Math.max(0, message.msgSeqNum()), FixTags.NEW_SEQ_NO, FixMsgTypes.SEQUENCE_RESET, 5,
                "NewSeqNo " + next + " would move the sequence back from " + expected);
            return;
        }
        expectedInbound(next);
    }

    /** A ResendRequest from the expected number to infinity; no other until the client catches up to seq. */
    private void askForResend(final long expected, final long seq) {
        resendAskedThrough = seq;
        proxy.resendRequest(this, expected);
    }

    /** Sends a Logout (with a reason, or null); the connection closes once it is written or answered. */
    void logout(final String text) {
        proxy.logout(this, text);
        logoutSent = true;
        if (text != null) {
            proxy.log("session " + name + ": Logout sent: " + text);
        }
    }

    private static boolean isApplicationType(final int msgType) {
        final int first = msgType & 0xFF;
        final int second = (msgType >>> 8) & 0xFF;
        if (second == 0) {
            return (first >= '6' && first <= '9') || (first >= 'B' && first <= 'Z') || (first >= 'a' && first <= 'z');
        }
        return (first == 'A' || first == 'B') && ((second >= 'A' && second <= 'Z') || (second >= 'a' && second <= 'z'));
    }

    // ------------------------------------------------------------------ timers

    /**
     * The resend we asked for has ended (the expected number is past what revealed the gap) below a message we dropped
     * while it was open: ask from the expected number again, once nothing has arrived for a moment (a resend's messages
     * come together, so a quiet line means it is over). QuickFIX/J does this when an order is sent just as the answer
     * to our ResendRequest is being built.
     */
    private void askAgainForDropped(final long silentNanos) {
        if (droppedThrough == 0) {
            return;
        }
        final long expected = expectedInbound();
        if (droppedThrough < expected) {
            droppedThrough = 0;
        } else if (resendAskedThrough < expected && silentNanos >= DROPPED_ASK_AFTER_NANOS) {
            proxy.log("session " + name + ": asking again from " + expected + ": " + droppedThrough + " came while a gap was open"
                + " and the resend ended before it");
            askForResend(expected, droppedThrough);
        }
    }

    /** Heartbeat after HeartBtInt of our silence; TestRequest after 1.2 × HeartBtInt of theirs; cut if it goes unanswered. */
    void onTimer(final long nowNanos) {
        if (connection == null || heartbeatNanos == 0 || logoutSent) {
            return;
        }
        if (nowNanos - lastSentNanos >= heartbeatNanos) {
            proxy.heartbeat(this, null, 0, 0);
        }
        final long silent = nowNanos - lastReceivedNanos;
        askAgainForDropped(silent);
        if (testRequestSentNanos == 0 && silent > heartbeatNanos + heartbeatNanos / 5) {
            testRequestSentNanos = nowNanos;
            proxy.testRequest(this, nowNanos / 1_000_000L);
        } else if (testRequestSentNanos != 0 && nowNanos - testRequestSentNanos > heartbeatNanos) {
            proxy.disconnect(this, "no answer to a TestRequest within " + heartbeatNanos / SECOND + " s");
        }
    }
}
