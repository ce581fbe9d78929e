package io.chronex.gateway;

import io.chronex.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.ExecType;
import quickfix.field.MsgSeqNum;
import quickfix.field.OrdStatus;
import quickfix.field.Side;
import quickfix.field.TimeInForce;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX 4.4 Volume 2's session-level test cases end to end, against a real gateway and engine: the framing cases
 * (garbled messages, garbage, another BeginString, no MsgSeqNum) over raw sockets, since no FIX engine sends them, and
 * the SendingTime tolerance and the in-session reset with QuickFIX/J. The rules themselves are unit-tested in
 * {@link FixSessionTest}; the table of cases is in docs/gateway.md.
 */
class GatewaySessionConformanceTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: BOB, account: 2}
          - {senderCompId: MALLORY, account: 3}
          - {senderCompId: TRENT, account: 4}
          - {senderCompId: PEGGY, account: 103}
          - {senderCompId: VICTOR, account: 101}
          - {senderCompId: OSCAR, account: 102}
        """;

    @TempDir
    static Path tmp;
    private static Exchange exchange;

    @BeforeAll
    static void start() throws Exception {
        exchange = new Exchange(tmp, SESSIONS);
        exchange.startEngine();
        exchange.startGateway();
    }

    @AfterAll
    static void stop() {
        if (exchange != null) {
            exchange.close();
        }
    }

    /**
     * 2 and 3 (garbled): a wrong CheckSum, a wrong BodyLength, 9 and 35 out of order, and garbage between messages are
     * ignored: no Reject, no disconnect, and their MsgSeqNum is not counted, so the next good message shows the gap and
     * gets a ResendRequest from the first of them; once the gap is filled the session goes on.
     */
    @Test
    void garbledMessagesAreIgnoredAndAskedForAgain() throws Exception {
        try (FixText mallory = FixText.logOn(exchange.port, "MALLORY")) {
            mallory.sendRaw(FixText.withChecksum(mallory.body("1", "112=CHECKSUM\u0001"), "000"));
            mallory.sendRaw(FixText.withBodyLength(mallory.body("1", "112=BODYLENGTH\u0001"), 3));
            final String body = mallory.body("1", "112=ORDER\u0001");
            final String misordered = "8=FIX.4.4\u0001" + body.substring(0, body.indexOf('\u0001') + 1) + "9=" + body.length() + "\u0001"
                + body.substring(body.indexOf('\u0001') + 1);
            mallory.sendRaw((misordered + "10=" + FixText.checksum(misordered) + "\u0001").getBytes(StandardCharsets.ISO_8859_1));
            mallory.sendRaw("\u0001not FIX at all\u0001".getBytes(StandardCharsets.ISO_8859_1));
            mallory.send("1", "112=AFTER\u0001");
            final FixText.Fields first = mallory.next();
            assertEquals("2", first.get(35), "the first answer is the ResendRequest, nothing for the garbled ones: " + first);
            assertEquals("2", first.get(7), "from the first garbled message's number: none of them was counted");
            assertEquals("0", first.get(16));
            mallory.sendWithSeq(2, "4", "43=Y\u0001122=" + FixText.now() + "\u0001123=Y\u000136=6\u0001");
            mallory.send("1", "112=FILLED\u0001");
            final FixText.Fields heartbeat = mallory.next();
            assertEquals("0", heartbeat.get(35), heartbeat.toString());
            assertEquals("FILLED", heartbeat.get(112));
        }
        assertTrue(exchange.gatewayLog().contains("session MALLORY: garbled message ignored (CheckSum is 000, computed"));
    }

    /** 2 (BeginString): another BeginString, on the Logon or later, is answered with a Logout saying so, then the connection closes. */
    @Test
    void anotherBeginStringIsAnsweredWithALogoutThenDisconnected() throws Exception {
        try (Socket s = new Socket("127.0.0.1", exchange.port)) {
            s.setSoTimeout(15_000);
            s.getOutputStream().write(fix42("35=A\u000149=TRENT\u000156=CHRONEX\u000134=1\u000152=" + FixText.now()
                + "\u000198=0\u0001108=30\u0001"));
            final String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("8=FIX.4.4\u0001") && answer.contains("\u000135=5\u0001")
                && answer.contains("58=Incorrect BeginString FIX.4.2: this gateway speaks FIX.4.4"), answer);
        }
        try (FixText trent = FixText.logOn(exchange.port, "TRENT")) {
            trent.sendRaw(fix42(trent.body("0", "")));
            final FixText.Fields logout = trent.expect("5");
            assertEquals("Incorrect BeginString FIX.4.2: this session is FIX.4.4", logout.get(58));
            assertTrue(trent.closedByPeer());
        }
    }

    /** 2 (MsgSeqNum missing): a Logout, then the connection closes; not a Reject the session carries on after. */
    @Test
    void aMessageWithoutMsgSeqNumEndsTheSession() throws Exception {
        try (FixText peggy = FixText.logOn(exchange.port, "PEGGY")) {
            peggy.sendRaw(FixText.whole("35=0\u000149=PEGGY\u000156=CHRONEX\u000152=" + FixText.now() + "\u0001"));
            final FixText.Fields logout = peggy.next();
            assertEquals("5", logout.get(35), logout.toString());
            assertEquals("MsgSeqNum (34) is missing", logout.get(58));
            assertTrue(peggy.closedByPeer());
        }
    }

    /**
     * 11a-c: SequenceReset-Reset is applied whatever its MsgSeqNum (here 0); NewSeqNo below the expected number gets
     * Reject 373=5 on tag 36 with RefSeqNum its own MsgSeqNum. And 6: the gateway's own gap fills carry OrigSendingTime.
     */
    @Test
    void sequenceResetInResetModeAndOurGapFills() throws Exception {
        try (FixText oscar = FixText.logOn(exchange.port, "OSCAR")) {
            oscar.sendRaw(FixText.whole("35=4\u000149=OSCAR\u000156=CHRONEX\u000134=0\u000152=" + FixText.now() + "\u000136=20\u0001"));
            oscar.sendWithSeq(20, "1", "112=AT20\u0001");
            final FixText.Fields heartbeat = oscar.next();
            assertEquals("0", heartbeat.get(35), "no Reject of the reset: " + heartbeat);
            assertEquals("AT20", heartbeat.get(112));
            oscar.sendWithSeq(33, "4", "36=7\u0001");
            final FixText.Fields reject = oscar.next();
            assertEquals("3", reject.get(35), reject.toString());
            assertEquals("5", reject.get(373));
            assertEquals("36", reject.get(371));
            assertEquals("33", reject.get(45));
            oscar.sendWithSeq(21, "2", "7=1\u000116=0\u0001");
            final FixText.Fields gapFill = oscar.next();
            assertEquals("4", gapFill.get(35), "the Logon, Heartbeat and Reject are session messages: one gap fill " + gapFill);
            assertEquals("Y", gapFill.get(123));
            assertEquals("Y", gapFill.get(43));
            assertNotNull(gapFill.get(122), "PossDupFlag=Y needs OrigSendingTime: " + gapFill);
            assertTrue(gapFill.get(122).compareTo(gapFill.get(52)) <= 0, gapFill.toString());
        }
    }

    /**
     * 2 (SendingTime accuracy) with QuickFIX/J: a client whose clock is 10 minutes off is refused at Logon (a Logout with the reason); once
     * its clock is right it logs on; a message sent 5 minutes ahead later gets Reject 373=10, then a Logout.
     */
    @Test
    void sendingTimeOutsideTheToleranceWithQuickFixJ() throws Exception {
        try (QfjClient bob = new QfjClient("BOB", null, exchange.port, true)) {
            bob.sendingTimeSkewMillis = -600_000;
            Await.until("the skewed Logon refused", 30, () -> exchange.gatewayLog().contains("refused Logon from")
                && exchange.gatewayLog().contains("SendingTime accuracy problem: SendingTime (52)"));
            assertFalse(bob.loggedOn);
            bob.sendingTimeSkewMillis = 0;
            bob.awaitLogon();
            bob.events.clear();
            bob.sendingTimeSkewMillis = 300_000;
            bob.send(GatewayLifecycleTest.order("SKEW1", Side.BUY, "ACME", "1", "95.00", TimeInForce.DAY));
            Await.until("the Logout", 30, () -> bob.events.stream().anyMatch(e -> e.startsWith("5 ")));
            final String events = String.join(" | ", bob.events);
            assertTrue(events.startsWith("3 SendingTime accuracy problem: SendingTime (52)")
                && events.contains("5 SendingTime accuracy problem"), events);
            bob.sendingTimeSkewMillis = 0;
        }
    }

    /** In-session reset with QuickFIX/J: its Logon with ResetSeqNumFlag=Y is answered with one, and both sides start at 1. */
    @Test
    void inSessionResetWithQuickFixJ() throws Exception {
        try (QfjClient alice = new QfjClient("ALICE", null, exchange.port, true)) {
            alice.awaitLogon();
            for (int i = 1; i <= 3; i++) {
                alice.send(GatewayLifecycleTest.order("R" + i, Side.BUY, "ACME", "1", "90.00", TimeInForce.DAY));
                GatewayLifecycleTest.expectReport(alice.next(), "R" + i, ExecType.NEW, OrdStatus.NEW, 0, 1);
            }
            final Session session = alice.session();
            // QuickFIX/J counts a message in after handing it to the application: wait for the count, not the report.
            Await.until("QuickFIX/J past MsgSeqNum 4 both ways", 30,
                () -> session.getExpectedSenderNum() >= 5 && session.getExpectedTargetNum() >= 5);
            final quickfix.fix44.Logon reset = new quickfix.fix44.Logon(new quickfix.field.EncryptMethod(0),
                new quickfix.field.HeartBtInt(30));
            reset.set(new quickfix.field.ResetSeqNumFlag(true));
            assertTrue(Session.sendToTarget(reset, alice.sessionId));
            Await.until("both directions reset by the answering Logon", 30,
                () -> session.getExpectedTargetNum() == 2 && session.getExpectedSenderNum() == 2);
            assertTrue(alice.loggedOn, "still logged on: " + alice.events);
            alice.send(GatewayLifecycleTest.order("R4", Side.BUY, "ACME", "1", "90.00", TimeInForce.DAY));
            final Message report = alice.next();
            GatewayLifecycleTest.expectReport(report, "R4", ExecType.NEW, OrdStatus.NEW, 0, 1);
            assertEquals(2, report.getHeader().getInt(MsgSeqNum.FIELD), "the first report after the reset");
        }
        assertTrue(exchange.gatewayLog().contains("session ALICE: sequence numbers reset in session"));
    }

    /**
     * 14a-j end to end: invalid fields, also ones the exchange does not use, get the session Reject FIX 4.4 names, with
     * RefSeqNum, RefTagID and RefMsgType; the session goes on, and QuickFIX/J's order with a two-instance NoPartyIDs group
     * (what a real client sends) is accepted.
     */
    @Test
    void invalidFieldsGetTheRejectTheSpecificationNames() throws Exception {
        try (FixText victor = FixText.logOn(exchange.port, "VICTOR")) {
            final String order = "11=V1\u000155=ACME\u000154=1\u000160=" + FixText.now() + "\u000138=1\u000140=2\u000144=95.00\u0001";
            expectReject(victor, 2, "D", order + "999=x\u0001", "0", "999");
            expectReject(victor, 3, "0", "55=ACME\u0001", "2", "55");
            expectReject(victor, 4, "D", order + "21=7\u0001", "5", "21");
            expectReject(victor, 5, "D", order + "59=Z\u0001", "5", "59");
            expectReject(victor, 6, "D", order + "126=20261301-10:00:00\u0001", "6", "126");
            expectReject(victor, 7, "D", order + "453=2\u0001448=P1\u0001447=D\u0001452=1\u0001", "16", "453");
            expectReject(victor, 8, "D", order + "453=1\u0001447=D\u0001448=P1\u0001452=1\u0001", "15", "447");
            expectReject(victor, 9, "D", order + "97=N\u0001", "14", "97");
            victor.send("D", "115=DESK1\u0001" + order.replace("40=2", "40=Z"));
            final FixText.Fields routed = victor.next();
            assertEquals("3", routed.get(35), "an invalid OrdType is a session Reject, not a business one: " + routed);
            assertEquals("5", routed.get(373));
            assertEquals("40", routed.get(371));
            assertEquals("DESK1", routed.get(128), "and the Reject goes back to the third party: " + routed);
            victor.send("D", order.replace("V1", "V2") + "453=2\u0001448=P1\u0001447=D\u0001452=1\u0001448=P2\u0001447=D\u0001452=3\u0001");
            final FixText.Fields report = victor.expect("8");
            assertEquals("V2", report.get(11));
            assertEquals("0", report.get(150), "a valid order with a repeating group is accepted: " + report);
        }
        try (QfjClient alice = new QfjClient("ALICE", null, exchange.port, true)) {
            alice.awaitLogon();
            final quickfix.fix44.NewOrderSingle order = GatewayLifecycleTest.order("P1", Side.BUY, "ACME", "1", "91.00",
                TimeInForce.DAY);
            for (final String party : new String[]{"DESK-7", "TRADER-42"}) {
                final quickfix.fix44.NewOrderSingle.NoPartyIDs group = new quickfix.fix44.NewOrderSingle.NoPartyIDs();
                group.set(new quickfix.field.PartyID(party));
                group.set(new quickfix.field.PartyIDSource('D'));
                group.set(new quickfix.field.PartyRole(party.startsWith("DESK") ? 1 : 11));
                order.addGroup(group);
            }
            alice.send(order);
            GatewayLifecycleTest.expectReport(alice.next(), "P1", ExecType.NEW, OrdStatus.NEW, 0, 1);
        }
    }

    private static void expectReject(final FixText client, final int seq, final String msgType, final String fields,
                                     final String reason, final String refTag) throws Exception {
        client.send(msgType, fields);
        final FixText.Fields reject = client.next();
        assertEquals("3", reject.get(35), "a session Reject for " + fields + ": " + reject);
        assertEquals(reason, reject.get(373), reject.toString());
        assertEquals(refTag, reject.get(371), reject.toString());
        assertEquals(msgType, reject.get(372), reject.toString());
        assertEquals(Integer.toString(seq), reject.get(45), reject.toString());
    }

    private static byte[] fix42(final String body) {
        final String head = "8=FIX.4.2\u00019=" + body.length() + "\u0001";
        return (head + body + "10=" + FixText.checksum(head + body) + "\u0001").getBytes(StandardCharsets.ISO_8859_1);
    }
}
