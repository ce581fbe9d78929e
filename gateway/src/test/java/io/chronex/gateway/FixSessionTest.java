package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.session.ResendIndex;
import io.chronex.gateway.session.SessionStateFile;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX session rules without sockets or queues: messages are decoded as the gateway would, and
 * what the session sends is recorded from its {@link SessionProxy}. The QuickFIX/J and raw-socket
 * tests prove the same rules end to end.
 */
class FixSessionTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long JOURNAL_END = 0x4_0000_0123L;
    private static final String TIME = "52=20261123-10:00:00.000\u0001";
    /** The gateway's clock in these tests: TIME exactly. */
    private static final long NOW_MILLIS = java.time.Instant.parse("2026-11-23T10:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private final List<String> sent = new ArrayList<>();
    private final List<String> application = new ArrayList<>();
    private final FixDecoder decoder = new FixDecoder(true);
    private SessionStateFile state;
    private ResendIndex resendIndex;
    private FixSession session;
    private Connection connection;

    @BeforeEach
    void setUp() {
        state = new SessionStateFile(dir.resolve("sessions.state"));
        resendIndex = new ResendIndex(dir.resolve("resend.index"));
        session = new FixSession(new GatewayConfig.Session("ALICE", "secret", 1, 7, false, 0, true), "CHRONEX", state, resendIndex);
        session.wire(new RecordingProxy(), new FixSession.Application() {
            @Override
            public void onOrderEntry(final FixSession s, final FixDecoder message, final int msgType, final long seq) {
                application.add("order " + (char) msgType + " " + seq);
            }

            @Override
            public long journalEnd() {
                return JOURNAL_END;
            }
        });
        connection = new Connection(256, 256, null);
        connection.remote = "test";
        connection.open = true;
    }

    @AfterEach
    void tearDown() {
        resendIndex.close();
        state.close();
    }

    // ------------------------------------------------------------------ logon

    @Test
    void logonIsAnsweredAndTheNextNumberExpected() {
        assertTrue(logon("141=N\u0001", 1, 30));
        assertEquals(List.of("logon hb=30 reset=false"), sent);
        assertSame(connection, session.connection);
        assertSame(session, connection.session);
        assertEquals(2, session.expectedInbound());
        assertEquals(30 * SECOND, session.heartbeatNanos);
    }

    @Test
    void logonIsRefusedForEachBadField() {
        assertRefused("554=wrong\u0001108=30\u0001", 1, FixSession.LOGON_REFUSED);
        assertTrue(session.refusedCredentials, "counted against the CompID and the address by the gateway");
        assertRefused("554=secret\u0001108=0\u0001", 1, "HeartBtInt (108) must be 1..300 seconds");
        assertFalse(session.refusedCredentials, "the password was right");
        assertRefused("554=secret\u0001108=301\u0001", 1, "HeartBtInt (108) must be 1..300 seconds");
        assertRefused("554=secret\u0001108=30\u0001141=Y\u0001", 2, "a Logon with ResetSeqNumFlag=Y must have MsgSeqNum 1");
        state.expectedInbound(session.slot, 5);
        assertRefused("554=secret\u0001108=30\u0001", 3, "MsgSeqNum too low, expecting 5 but received 3");
        assertNull(session.connection);
        assertEquals(5, session.expectedInbound(), "a refused Logon uses no sequence number");
    }

    /**
     * Before the password is proven, nothing else is said: a wrong TargetCompID with a wrong password gets the words an
     * unknown SenderCompID gets, and only with the right password is the TargetCompID's problem named.
     */
    @Test
    void theWrongPasswordIsFoundBeforeAnythingElseIsSaid() {
        decode("35=A\u000149=ALICE\u000156=SOMEONE\u000134=1\u0001" + TIME + "98=0\u0001108=30\u0001554=guess\u0001");
        assertFalse(session.onLogon(connection, decoder, 0, NOW_MILLIS));
        assertEquals("refuse " + FixSession.LOGON_REFUSED, last());
        decode("35=A\u000149=ALICE\u000156=SOMEONE\u000134=1\u0001" + TIME + "98=0\u0001108=30\u0001554=secret\u0001");
        assertFalse(session.onLogon(connection, decoder, 0, NOW_MILLIS));
        assertEquals("refuse TargetCompID must be CHRONEX", last());
    }

    @Test
    void aSecondLogonOfAConnectedSessionIsRefused() {
        assertTrue(logon("", 1, 30));
        final Connection other = new Connection(256, 256, null);
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=2\u0001" + TIME + "98=0\u0001108=30\u0001554=secret\u0001");
        assertFalse(session.onLogon(other, decoder, 0, NOW_MILLIS));
        assertEquals("refuse session ALICE is already logged on from another connection", last());
        assertSame(connection, session.connection);
    }

    @Test
    void resetSeqNumFlagStartsBothDirectionsAgain() {
        state.expectedInbound(session.slot, 40);
        session.nextOutbound = 90;
        assertTrue(logon("141=Y\u0001", 1, 30));
        assertEquals(List.of("logon hb=30 reset=true"), sent);
        assertEquals(2, session.expectedInbound());
        assertEquals(2, session.nextOutbound, "the Logon answer was MsgSeqNum 1");
        assertEquals(JOURNAL_END, state.resetAt(session.slot), "a restart's journal scan must pass over the numbers before the reset");
    }

    @Test
    void aLogonIsRecordedAsConnectedBeforeItIsAnswered() {
        final boolean[] connectedWhenAnswered = new boolean[1];
        session.wire(new RecordingProxy() {
            @Override
            public void logon(final FixSession s, final long heartbeatSeconds, final boolean reset) {
                connectedWhenAnswered[0] = s.leftConnected();
                super.logon(s, heartbeatSeconds, reset);
            }
        }, null);
        assertTrue(logon("", 1, 30));
        assertTrue(connectedWhenAnswered[0], "a kill after the answer must still find the session connected on restart");
        session.disconnected();
        assertFalse(session.leftConnected());
    }

    @Test
    void logonAheadOfTheExpectedNumberAsksForTheGap() {
        state.expectedInbound(session.slot, 4);
        assertTrue(logon("", 9, 30));
        assertEquals(List.of("logon hb=30 reset=false", "resendRequest 4"), sent);
        assertEquals(4, session.expectedInbound(), "4..8 are still to come");
    }

    // ------------------------------------------------------------------ sequence numbers

    @Test
    void orderEntryInSequenceGoesToTheApplicationThenCounts() {
        logon("", 1, 30);
        message(2, "D", "11=A1\u0001");
        assertEquals(List.of("order D 2"), application);
        assertEquals(3, session.expectedInbound());
    }

    @Test
    void aCollateralInquiryInSequenceGoesToTheApplicationAsOrdersDo() {
        logon("", 1, 30);
        message(2, "BB", "909=Q1\u0001");
        assertEquals(List.of("order " + (char) FixMsgTypes.COLLATERAL_INQUIRY + " 2"), application);
        assertEquals(3, session.expectedInbound());
    }

    @Test
    void aGapIsAskedForOnceAndNothingAheadIsProcessed() {
        logon("", 1, 30);
        sent.clear();
        message(5, "D", "11=A1\u0001");
        message(6, "D", "11=A2\u0001");
        assertEquals(List.of("resendRequest 2"), sent);
        assertTrue(application.isEmpty());
        assertEquals(2, session.expectedInbound());
    }

    @Test
    void tooLowWithoutPossDupIsALogoutAndWithPossDupIgnored() {
        logon("", 1, 30);
        message(2, "0", "");
        sent.clear();
        message(2, "D", "43=Y\u0001122=20261123-10:00:00.000\u0001");
        assertTrue(sent.isEmpty());
        assertTrue(application.isEmpty());
        message(1, "D", "");
        assertEquals(List.of("logout MsgSeqNum too low, expecting 3 but received 1"), sent);
        assertTrue(session.logoutSent);
    }

    @Test
    void sequenceResetMovesForwardOnlyAndGapFillJumps() {
        logon("", 1, 30);
        sent.clear();
        message(99, "4", "36=10\u0001");
        assertEquals(10, session.expectedInbound(), "SequenceReset-Reset applies whatever its MsgSeqNum");
        message(10, "4", "123=Y\u000136=20\u0001");
        assertEquals(20, session.expectedInbound());
        message(20, "4", "123=Y\u000136=15\u0001");
        assertEquals(List.of("reject ref=20 tag=36 type=4 reason=5 NewSeqNo 15 is not above 20"), sent);
        assertEquals(21, session.expectedInbound());
        message(21, "4", "36=3\u0001");
        assertEquals("reject ref=21 tag=36 type=4 reason=5 NewSeqNo 3 would move the sequence back from 21", last());
        assertEquals(21, session.expectedInbound());
    }

    // ------------------------------------------------------------------ session messages

    @Test
    void testRequestIsAnsweredWithItsId() {
        logon("", 1, 30);
        message(2, "1", "112=PING-7\u0001");
        assertEquals("heartbeat PING-7", last());
        assertEquals(3, session.expectedInbound());
    }

    @Test
    void resendRequestIsPassedOnWithItsRange() {
        logon("", 1, 30);
        message(2, "2", "7=0\u000116=0\u0001");
        assertEquals("resend 1..0", last(), "BeginSeqNo 0 means from the first");
        message(3, "2", "7=5\u000116=9\u0001");
        assertEquals("resend 5..9", last());
    }

    @Test
    void aResendRequestAheadOfSequenceIsStillAnswered() {
        logon("", 1, 30);
        sent.clear();
        message(4, "2", "7=1\u000116=0\u0001");
        assertEquals(List.of("resend 1..0", "resendRequest 2"), sent);
    }

    @Test
    void theClientsLogoutIsAnswered() {
        logon("", 1, 30);
        message(2, "5", "");
        assertEquals("logout null", last());
        assertTrue(session.logoutSent);
        assertEquals(3, session.expectedInbound());
    }

    @Test
    void theAnswerToOurLogoutCloses() {
        logon("", 1, 30);
        session.logout("bye");
        assertEquals("logout bye", last());
        message(2, "5", "");
        assertEquals("loggedOut", last());
        assertNull(session.connection);
    }

    @Test
    void logoutAfterAGapAsksForTheGapFirst() {
        logon("", 1, 30);
        sent.clear();
        message(5, "5", "");
        assertEquals(List.of("resendRequest 2", "logout logout acknowledged"), sent);
    }

    @Test
    void compIdMismatchIsRejectedAndLoggedOut() {
        logon("", 1, 30);
        sent.clear();
        decode("35=0\u000149=MALLORY\u000156=CHRONEX\u000134=2\u0001" + TIME);
        session.onMessage(decoder, FixDecoder.OK, 0, NOW_MILLIS);
        assertEquals(List.of("reject ref=2 tag=49 type=0 reason=9 CompID problem",
            "logout SenderCompID/TargetCompID do not match the session"), sent);
    }

    @Test
    void malformedMessageUsesItsNumberOnlyWhenExpected() {
        logon("", 1, 30);
        sent.clear();
        message(2, "D", "11=\u0001");
        assertEquals("reject ref=2 tag=11 type=D reason=4", last().substring(0, "reject ref=2 tag=11 type=D reason=4".length()));
        assertEquals(3, session.expectedInbound());
        message(7, "D", "11=\u0001");
        assertEquals(3, session.expectedInbound(), "a malformed message ahead of sequence does not move it");
    }

    @Test
    void unsupportedMessagesGetTheirRejects() {
        logon("", 1, 30);
        message(2, "V", "262=1\u0001");
        assertEquals("businessReject ref=2 type=V reason=3 MsgType not supported by this gateway", last());
        assertEquals(3, session.expectedInbound());
    }

    // ------------------------------------------------------------------ FIX 4.4 Volume 2, session-level test cases

    /** 11a-c: SequenceReset-Reset is applied whatever its MsgSeqNum (here 0, none, far below and far above). */
    @Test
    void sequenceResetInResetModeIgnoresItsMsgSeqNum() {
        logon("", 1, 30);
        sent.clear();
        assertEquals(FixDecoder.OK, decode("35=4\u000149=ALICE\u000156=CHRONEX\u000134=0\u0001" + TIME + "36=40\u0001"));
        session.onMessage(decoder, FixDecoder.OK, 0, NOW_MILLIS);
        assertEquals(40, session.expectedInbound(), "NewSeqNo above the expected number: it becomes the expected number");
        assertEquals(FixDecoder.OK, decode("35=4\u000149=ALICE\u000156=CHRONEX\u0001" + TIME + "36=50\u0001"));
        session.onMessage(decoder, FixDecoder.OK, 0, NOW_MILLIS);
        assertEquals(50, session.expectedInbound(), "without any MsgSeqNum too");
        message(1, "4", "123=N\u000136=50\u0001");
        assertEquals(50, session.expectedInbound(), "equal: accepted as it is");
        assertTrue(sent.isEmpty(), "and none of these is answered: " + sent);
        message(7, "4", "36=45\u0001");
        assertEquals(List.of("reject ref=7 tag=36 type=4 reason=5 NewSeqNo 45 would move the sequence back from 50"), sent);
        assertEquals(50, session.expectedInbound(), "below: Reject 373=5 on NewSeqNo, the expected number unchanged");
        assertFalse(session.logoutSent);
    }

    /** 2, SendingTime accuracy, on a Logon: beyond the tolerance it is refused (a Logout with the reason, then a close). */
    @Test
    void aLogonFarFromOurClockIsRefused() {
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=1\u000152=20261123-09:57:59.000\u000198=0\u0001108=30\u0001"
            + "554=secret\u0001");
        assertFalse(session.onLogon(connection, decoder, 0, NOW_MILLIS));
        assertEquals("refuse SendingTime accuracy problem: SendingTime (52) 20261123-09:57:59.000 is 121 s from the gateway's clock"
            + " (tolerance 120 s)", last());
        assertNull(session.connection);
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=1\u000152=20261123-10:02:00.000\u000198=0\u0001108=30\u0001"
            + "554=secret\u0001");
        assertTrue(session.onLogon(connection, decoder, 0, NOW_MILLIS), "exactly at the tolerance is still accurate");
    }

    /** 2, SendingTime accuracy, in session: Reject 373=10 on 52, the number counted, then a Logout; tolerance 0 checks nothing. */
    @Test
    void anInSessionMessageFarFromOurClockIsRejectedThenLoggedOut() {
        logon("", 1, 30);
        sent.clear();
        messageAt(2, "D", "11=A1\u0001", "20261123-10:05:00.001");
        assertEquals(List.of("reject ref=2 tag=52 type=D reason=10 SendingTime accuracy problem: SendingTime (52) 20261123-10:05:00.001"
            + " is 300 s from the gateway's clock (tolerance 120 s)", "logout SendingTime accuracy problem"), sent);
        assertTrue(application.isEmpty());
        assertEquals(3, session.expectedInbound());
        session.sendingTimeToleranceMillis = 0;
        messageAt(3, "D", "11=A2\u0001", "20200101-00:00:00");
        assertEquals(List.of("order D 3"), application);
    }

    /** 2, PossDup: without OrigSendingTime a Reject 373=1 on 122 (counted); OrigSendingTime after SendingTime, 373=10. */
    @Test
    void possDupNeedsAnOrigSendingTimeNoLaterThanItsSendingTime() {
        logon("", 1, 30);
        sent.clear();
        message(2, "D", "43=Y\u000111=A1\u0001");
        assertEquals(List.of("reject ref=2 tag=122 type=D reason=1 OrigSendingTime (122) is required with PossDupFlag=Y"), sent);
        assertTrue(application.isEmpty());
        assertEquals(3, session.expectedInbound());
        message(1, "D", "43=Y\u0001122=20261123-10:00:00.001\u000111=A0\u0001");
        assertEquals(List.of("reject ref=2 tag=122 type=D reason=1 OrigSendingTime (122) is required with PossDupFlag=Y",
            "reject ref=1 tag=122 type=D reason=10 OrigSendingTime (122) is later than SendingTime (52)",
            "logout SendingTime accuracy problem"), sent);
        assertEquals(3, session.expectedInbound(), "a message below the expected number uses up nothing");
    }

    /** 2 (BeginString): another BeginString ends the session with a Logout saying so; 2 (MsgSeqNum missing) likewise. */
    @Test
    void aWrongBeginStringOrAMissingMsgSeqNumEndsTheSession() {
        logon("", 1, 30);
        sent.clear();
        final String body = "35=0\u000149=ALICE\u000156=CHRONEX\u000134=2\u0001" + TIME;
        final String head = "8=FIX.4.2\u00019=" + body.length() + "\u0001";
        int sum = 0;
        for (final char ch : (head + body).toCharArray()) {
            sum += ch;
        }
        final byte[] fix42 = (head + body + "10=" + String.format("%03d", sum & 0xFF) + "\u0001").getBytes(StandardCharsets.ISO_8859_1);
        final int status = decoder.decode(new UnsafeBuffer(fix42), 0, fix42.length);
        assertEquals(FixDecoder.WRONG_BEGIN_STRING, status);
        session.onMessage(decoder, status, 0, NOW_MILLIS);
        assertEquals(List.of("logout Incorrect BeginString FIX.4.2: this session is FIX.4.4"), sent);
        assertEquals(2, session.expectedInbound());

        setUp();
        logon("", 1, 30);
        sent.clear();
        final int missing = decode("35=0\u000149=ALICE\u000156=CHRONEX\u0001" + TIME);
        session.onMessage(decoder, missing, 0, NOW_MILLIS);
        assertEquals(List.of("logout MsgSeqNum (34) is missing"), sent);
        assertEquals(2, session.expectedInbound());
    }

    /**
     * A gap fill in a resend that gets a Reject (here: PossDupFlag=Y without OrigSendingTime) moves the expected number by
     * one, not to its NewSeqNo: the next message ahead must ask for the rest again, or every later message would be dropped
     * as too high while the connection stays up.
     */
    @Test
    void aRejectedGapFillDoesNotLeaveTheSessionWaitingForever() {
        logon("", 1, 30);
        sent.clear();
        message(5, "0", "");
        assertEquals(List.of("resendRequest 2"), sent);
        message(2, "4", "43=Y\u0001123=Y\u000136=6\u0001");
        assertEquals("reject ref=2 tag=122 type=4 reason=1 OrigSendingTime (122) is required with PossDupFlag=Y", last());
        assertEquals(3, session.expectedInbound());
        message(6, "0", "");
        assertEquals("resendRequest 3", last(), "asked again from where the sequence now is");
    }

    /**
     * QuickFIX/J sends an order just as it answers the ResendRequest our Logon asked: the order (5) comes first and is
     * dropped above the gap, then the gap fill brings the sequence to 5 and the resend is over without it. Once the line is
     * quiet the session asks again from 5, and the order, resent, goes through; before, it waited for the client's next
     * message (a heartbeat, 30 s later). Seen in GatewayLifecycleTest under a fresh clone's timing.
     */
    @Test
    void anOrderDroppedAboveAGapIsAskedForAgainWhenTheResendEndsBelowIt() {
        logon("", 4, 30);
        assertEquals("resendRequest 1", last());
        message(5, "D", "11=Q2\u0001");
        assertEquals(List.of(), application, "dropped: the gap is open");
        message(1, "4", "43=Y\u0001122=20261123-10:00:00.000\u0001123=Y\u000136=5\u0001");
        assertEquals(5, session.expectedInbound());
        sent.clear();
        session.lastSentNanos = 1_000 * SECOND;
        session.onTimer(1_000 * SECOND + 10_000_000L);
        assertEquals(List.of(), sent, "not while the resend's messages may still be arriving");
        session.onTimer(1_000 * SECOND + 60_000_000L);
        assertEquals(List.of("resendRequest 5"), sent);
        session.onTimer(1_000 * SECOND + 120_000_000L);
        assertEquals(List.of("resendRequest 5"), sent, "asked once");
        message(5, "D", "43=Y\u0001122=20261123-10:00:00.000\u000111=Q2\u0001");
        assertEquals(List.of("order D 5"), application);
        session.onTimer(1_000 * SECOND + 200_000_000L);
        assertEquals(List.of("resendRequest 5"), sent, "nothing more to ask");
        assertEquals(0, session.droppedThrough);
    }

    /** A Logon with an invalid field (EncryptMethod 98=9 is no FIX 4.4 value) is refused with a Logout naming it. */
    @Test
    void aLogonWithAnInvalidFieldIsRefused() {
        session.validator = new io.chronex.gateway.fix.FixValidator(io.chronex.gateway.fix.FixDictionary.fix44(), true, new int[0]);
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=1\u0001" + TIME + "98=9\u0001108=30\u0001554=secret\u0001");
        assertFalse(session.onLogon(connection, decoder, 0, NOW_MILLIS));
        assertEquals("refuse invalid Logon: EncryptMethod (98) has no value '9' (SessionRejectReason 5, tag 98)", last());
        assertNull(session.connection);
        assertTrue(logon("", 1, 30), "the same Logon with valid fields is accepted");
    }

    /** A Logon with ResetSeqNumFlag=Y and MsgSeqNum 1 while logged on: both directions back to 1, answered with 141=Y. */
    @Test
    void aResetLogonInSessionStartsBothDirectionsAgain() {
        logon("", 1, 30);
        message(2, "0", "");
        message(3, "0", "");
        sent.clear();
        session.nextOutbound = 11;
        message(1, "A", "98=0\u0001108=20\u0001141=Y\u0001");
        assertEquals(List.of("logon hb=20 reset=true"), sent);
        assertEquals(2, session.expectedInbound());
        assertEquals(2, session.nextOutbound, "our Logon answer was MsgSeqNum 1");
        assertEquals(20 * SECOND, session.heartbeatNanos);
        assertEquals(JOURNAL_END, state.resetAt(session.slot));
        assertFalse(session.logoutSent);
        message(2, "D", "11=A1\u0001");
        assertEquals(List.of("order D 2"), application);
        message(5, "A", "98=0\u0001108=20\u0001141=Y\u0001");
        assertEquals("logout a Logon with ResetSeqNumFlag=Y must have MsgSeqNum 1", last());
    }

    /**
     * 14a-j: a message in sequence with an invalid field gets the Reject FIX 4.4 names for it, with RefTagID, RefMsgType
     * and RefSeqNum, and uses up its number; nothing reaches the application. The fields need not be ones the exchange uses.
     */
    @Test
    void invalidFieldsGetTheRejectTheSpecificationNames() {
        session.validator = new io.chronex.gateway.fix.FixValidator(io.chronex.gateway.fix.FixDictionary.fix44(), true, new int[0]);
        logon("", 1, 30);
        sent.clear();
        final String order = "11=A1\u000155=ACME\u000154=1\u000160=20261123-10:00:00\u000138=1\u000140=2\u000144=10\u0001";
        message(2, "D", order + "999=x\u0001");
        message(3, "0", "55=ACME\u0001");
        message(4, "D", order + "21=7\u0001");
        message(5, "D", order + "126=20261301-10:00:00\u0001");
        message(6, "D", order + "453=2\u0001448=P1\u0001447=D\u0001452=1\u0001");
        message(7, "D", order + "453=1\u0001447=D\u0001448=P1\u0001452=1\u0001");
        message(8, "D", order + "43=N\u0001");
        message(9, "D", "11=A2\u000155=ACME\u000154=1\u000138=1\u000140=2\u0001");
        assertEquals(List.of(
            "reject ref=2 tag=999 type=D reason=0 tag 999 is not defined in FIX 4.4",
            "reject ref=3 tag=55 type=0 reason=2 Symbol (55) is not defined for MsgType 0",
            "reject ref=4 tag=21 type=D reason=5 HandlInst (21) has no value '7'",
            "reject ref=5 tag=126 type=D reason=6 ExpireTime (126) is not a UTCTimestamp (YYYYMMDD-HH:MM:SS[.sss]): '20261301-10:00:00'",
            "reject ref=6 tag=453 type=D reason=16 NoPartyIDs (453) is 2 but 1 instance follows",
            "reject ref=7 tag=447 type=D reason=15 an instance of NoPartyIDs (453) does not start with PartyID (448)",
            "reject ref=8 tag=43 type=D reason=14 PossDupFlag (43) is a header field after the body",
            "reject ref=9 tag=60 type=D reason=1 required TransactTime (60) is missing"), sent);
        assertTrue(application.isEmpty());
        assertEquals(10, session.expectedInbound(), "each used up its number");
        message(10, "D", order + "453=2\u0001448=P1\u0001447=D\u0001452=1\u0001448=P2\u0001447=D\u0001452=3\u0001");
        assertEquals(List.of("order D 10"), application, "a valid order with a repeating group goes through");
    }

    // ------------------------------------------------------------------ timers

    @Test
    void silenceBringsHeartbeatThenTestRequestThenDisconnect() {
        logon("", 1, 10);
        sent.clear();
        final long t0 = session.lastReceivedNanos;
        session.onTimer(t0 + 9 * SECOND);
        assertTrue(sent.isEmpty());
        session.onTimer(t0 + 10 * SECOND);
        assertEquals(List.of("heartbeat "), sent, "our own silence: a Heartbeat");
        session.lastSentNanos = t0 + 10 * SECOND;
        session.onTimer(t0 + 12 * SECOND + 1);
        assertEquals("testRequest", last().substring(0, "testRequest".length()), "their silence past 1.2 x HeartBtInt: a TestRequest");
        session.onTimer(t0 + 20 * SECOND);
        assertFalse(last().startsWith("disconnect"));
        session.onTimer(t0 + 22 * SECOND + 2);
        assertEquals("disconnect no answer to a TestRequest within 10 s", last());
    }

    @Test
    void anyMessageAnswersTheTestRequest() {
        logon("", 1, 10);
        final long t0 = session.lastReceivedNanos;
        session.lastSentNanos = t0 + 11 * SECOND;
        session.onTimer(t0 + 12 * SECOND + 1);
        assertTrue(last().startsWith("testRequest"));
        decode("35=0\u000149=ALICE\u000156=CHRONEX\u000134=2\u0001" + TIME);
        session.onMessage(decoder, FixDecoder.OK, t0 + 13 * SECOND, NOW_MILLIS);
        session.lastSentNanos = t0 + 23 * SECOND;
        session.onTimer(t0 + 24 * SECOND);
        assertFalse(last().startsWith("disconnect"));
    }

    // ------------------------------------------------------------------ helpers

    private boolean logon(final String extra, final int seq, final int heartbeat) {
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=" + seq + "\u0001" + TIME + "98=0\u0001108=" + heartbeat + "\u0001"
            + "554=secret\u0001" + extra);
        return session.onLogon(connection, decoder, 1_000 * SECOND, NOW_MILLIS);
    }

    private void assertRefused(final String fields, final int seq, final String why) {
        decode("35=A\u000149=ALICE\u000156=CHRONEX\u000134=" + seq + "\u0001" + TIME + "98=0\u0001" + fields);
        assertFalse(session.onLogon(connection, decoder, 0, NOW_MILLIS));
        assertEquals("refuse " + why, last());
    }

    private void message(final int seq, final String msgType, final String fields) {
        final int status = decode("35=" + msgType + "\u000149=ALICE\u000156=CHRONEX\u000134=" + seq + "\u0001" + TIME + fields);
        session.onMessage(decoder, status, 1_000 * SECOND, NOW_MILLIS);
    }

    private void messageAt(final int seq, final String msgType, final String fields, final String sendingTime) {
        final int status = decode("35=" + msgType + "\u000149=ALICE\u000156=CHRONEX\u000134=" + seq + "\u000152=" + sendingTime + "\u0001"
            + fields);
        session.onMessage(decoder, status, 1_000 * SECOND, NOW_MILLIS);
    }

    private int decode(final String body) {
        final byte[] bytes = FixText.whole(body);
        return decoder.decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private String last() {
        return sent.get(sent.size() - 1);
    }

    /** Records each call as a line; messages take a MsgSeqNum, as the real proxy's do. */
    private class RecordingProxy implements SessionProxy {
        @Override
        public void logon(final FixSession s, final long heartbeatSeconds, final boolean reset) {
            record("logon hb=" + heartbeatSeconds + " reset=" + reset, s);
        }

        @Override
        public void logout(final FixSession s, final String text) {
            record("logout " + text, s);
        }

        @Override
        public void heartbeat(final FixSession s, final DirectBuffer testReqId, final int offset, final int length) {
            record("heartbeat " + (testReqId == null ? "" : testReqId.getStringWithoutLengthAscii(offset, length)), s);
        }

        @Override
        public void testRequest(final FixSession s, final long testReqId) {
            record("testRequest " + testReqId, s);
        }

        @Override
        public void resendRequest(final FixSession s, final long beginSeqNo) {
            record("resendRequest " + beginSeqNo, s);
        }

        @Override
        public void reject(final FixSession s, final long refSeqNum, final int refTag, final int refMsgType, final int reason,
                           final CharSequence text) {
            record("reject ref=" + refSeqNum + " tag=" + refTag + " type=" + (char) refMsgType + " reason=" + reason + " " + text, s);
        }

        @Override
        public void businessReject(final FixSession s, final long refSeqNum, final int refMsgType, final int reason, final String text) {
            record("businessReject ref=" + refSeqNum + " type=" + (char) refMsgType + " reason=" + reason + " " + text, s);
        }

        @Override
        public void resend(final FixSession s, final long beginSeqNo, final long endSeqNo) {
            sent.add("resend " + beginSeqNo + ".." + endSeqNo);
        }

        @Override
        public void refuseLogon(final Connection c, final FixDecoder logon, final String why) {
            sent.add("refuse " + why);
        }

        @Override
        public void disconnect(final FixSession s, final String why) {
            sent.add("disconnect " + why);
            s.connection = null;
        }

        @Override
        public void loggedOut(final FixSession s) {
            sent.add("loggedOut");
            s.connection = null;
        }

        @Override
        public void log(final String line) {
            assertFalse(line.getBytes(StandardCharsets.US_ASCII).length == 0);
        }

        private void record(final String line, final FixSession s) {
            sent.add(line);
            s.nextOutbound++;
        }
    }
}
