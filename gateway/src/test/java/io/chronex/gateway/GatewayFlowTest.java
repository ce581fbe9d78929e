package io.chronex.gateway;

import io.chronex.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Output with flow control, over raw sockets against a real engine and gateway: a resend of
 * 100,000 messages arrives whole and in order while the client reads normally, with the answer to
 * a later request after it; a client that reads nothing is cut by the write-stall rule (not for how
 * much it asked) and gets everything by resend on its next logon; a resend made of reports and gap
 * fills (where a cut used to crash the whole gateway with a NullPointerException) streams whole at
 * several alignments and, unread, costs only its own connection. Another session is served
 * throughout, and nothing in the gateway's log is an exception.
 */
class GatewayFlowTest {
    private static final String SESSIONS = """
          - {senderCompId: BULK, account: 1}
          - {senderCompId: SLOW, account: 2}
          - {senderCompId: OTHER, account: 3}
          - {senderCompId: GAPS, account: 4}
        writeStallSeconds: 2
        """;

    @TempDir
    static Path tmp;
    private static Exchange exchange;
    private static int otherOrders;

    @BeforeAll
    static void start() throws Exception {
        exchange = new Exchange(tmp, SESSIONS);
        exchange.startEngine();
        exchange.startGateway();
    }

    @AfterAll
    static void stop() {
        exchange.close();
    }

    @Test
    void aResendOfAHundredThousandMessagesArrivesWholeAndInOrderAndLaterOutputWaitsForIt() throws Exception {
        final int count = 100_000;
        try (RawFixClient bulk = new RawFixClient("BULK")) {
            bulk.connect(exchange.port, 0);
            assertEquals(1, bulk.logOn(true).seq());
            storeRefusals(bulk, count, false);
            bulk.send("2", "7=1\u000116=0\u0001");
            bulk.send("1", "112=AFTER\u0001");
            bulk.flush();
            final RawFixClient.Msg gap = bulk.next();
            assertEquals("4", gap.type(), gap.toString());
            assertEquals(1, gap.seq());
            assertEquals("2", gap.get(36));
            for (int seq = 2; seq <= count + 1; seq++) {
                final RawFixClient.Msg m = bulk.next();
                assertEquals(seq, m.seq(), m.toString());
                assertEquals("8", m.type(), m.toString());
                assertEquals("Y", m.get(43), m.toString());
                assertNotNull(m.get(122), m.toString());
                assertEquals("R" + (seq - 1), m.get(11), m.toString());
            }
            // The TestRequest sent after the ResendRequest is answered after the whole resend, in sequence.
            final RawFixClient.Msg after = bulk.next();
            assertEquals("0", after.type(), after.toString());
            assertEquals("AFTER", after.get(112), after.toString());
            assertEquals(count + 2, after.seq());
        }
        otherIsServed();
        noExceptionInTheGatewayLog();
    }

    @Test
    void aClientThatReadsNothingIsCutByTheStallRuleAndGetsEverythingByResendOnItsNextLogon() throws Exception {
        final int count = 40_000;
        final RawFixClient slow = new RawFixClient("SLOW");
        try {
            slow.connect(exchange.port, 4096);
            slow.logOn(true);
            storeRefusals(slow, count, false);
            // About 10 MB asked for, and not one byte read from here on.
            slow.send("2", "7=1\u000116=0\u0001");
            slow.flush();
            otherIsServed();
            awaitLog("session SLOW disconnected: slow consumer: took none of our output for 2 s");
            otherIsServed();
        } finally {
            slow.close();
        }
        slow.connect(exchange.port, 0);
        final int last = slow.logOn(false).seq();
        slow.send("2", "7=1\u000116=0\u0001");
        slow.flush();
        assertEquals(count, readResend(slow, 1, last), "reports resent");
        assertTrue(slow.nextOut() > count);
        slow.close();
        noExceptionInTheGatewayLog();
    }

    /**
     * Reports and gap fills alternate (a refused order, then a TestRequest answered by a Heartbeat).
     * The old gateway queued a resend whole, cut the client at 1 MiB, and when the cut fell on a gap
     * fill wrote the next message to a null connection: NullPointerException, the process gone. Now
     * each alignment streams whole, and a client that stops reading in the middle loses only its own
     * connection.
     */
    @Test
    void aResendOfReportsAndGapFillsStreamsAtEveryAlignmentAndAnUnreadOneCostsOnlyItsConnection() throws Exception {
        // About 7 MB a resend: more than the 1 MiB pending buffer and the socket's buffers (4 MiB at most here) can hold.
        final int pairs = 20_000;
        try (RawFixClient gaps = new RawFixClient("GAPS")) {
            gaps.connect(exchange.port, 4096);
            gaps.logOn(true);
            storeRefusals(gaps, pairs, true);
            gaps.disconnect();
            // Each on a new connection, as a client cut by the old gateway would have come back.
            for (final int begin : new int[]{1, 2, 5001, 10002}) {
                gaps.connect(exchange.port, 4096);
                final int last = gaps.logOn(false).seq();
                gaps.send("2", "7=" + begin + "\u000116=0\u0001");
                gaps.flush();
                assertEquals(pairs - (begin - 1) / 2, readResend(gaps, begin, last), "reports resent from " + begin);
                gaps.disconnect();
            }
            gaps.connect(exchange.port, 4096);
            gaps.logOn(false);
            gaps.send("2", "7=1\u000116=0\u0001");
            gaps.flush();
            awaitLog("session GAPS disconnected: slow consumer: took none of our output for 2 s");
        }
        otherIsServed();
        noExceptionInTheGatewayLog();
    }

    /**
     * Sends count orders the gateway refuses itself (one stored report each), with a TestRequest
     * after each when withHeartbeats (one stored Heartbeat each), reading the answers a thousand at a time.
     */
    static void storeRefusals(final RawFixClient client, final int count, final boolean withHeartbeats) throws IOException {
        for (int done = 0; done < count; ) {
            final int batch = Math.min(1000, count - done);
            for (int i = 1; i <= batch; i++) {
                client.sendRefusedOrder(done + i);
                if (withHeartbeats) {
                    client.send("1", "112=T" + (done + i) + "\u0001");
                }
            }
            client.flush();
            for (int i = 0; i < batch * (withHeartbeats ? 2 : 1); i++) {
                final RawFixClient.Msg m = client.next();
                assertTrue("8".equals(m.type()) || "0".equals(m.type()), m.toString());
            }
            done += batch;
        }
    }

    /**
     * Reads a resend of begin..last: every MsgSeqNum exactly once and in order, as a PossDup report
     * or inside a gap fill; returns the number of reports.
     */
    static int readResend(final RawFixClient client, final int begin, final int last) throws IOException {
        int expected = begin;
        int reports = 0;
        while (expected <= last) {
            final RawFixClient.Msg m = client.next();
            if ("0".equals(m.type()) && m.get(43) == null) {
                // A heartbeat of ours while the resend was asked for: it follows the resend, so not here.
                throw new AssertionError("live message " + m + " overtook the resend at " + expected);
            }
            assertEquals(expected, m.seq(), m.toString());
            assertEquals("Y", m.get(43), m.toString());
            if ("4".equals(m.type())) {
                assertEquals("Y", m.get(123), m.toString());
                final int next = Integer.parseInt(m.get(36));
                assertTrue(next > expected, m.toString());
                expected = next;
            } else {
                assertEquals("8", m.type(), m.toString());
                reports++;
                expected++;
            }
        }
        return reports;
    }

    private static void otherIsServed() throws IOException {
        try (RawFixClient other = new RawFixClient("OTHER")) {
            other.connect(exchange.port, 0);
            other.logOn(true);
            final String id = "O" + (++otherOrders);
            other.send("D", "11=" + id + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=95.00\u000160=20261123-10:00:00\u0001");
            other.flush();
            final RawFixClient.Msg report = other.expect("8");
            assertEquals(id, report.get(11), report.toString());
            assertEquals("0", report.get(150), report.toString());
        }
    }

    private static void awaitLog(final String text) throws Exception {
        try {
            Await.until("a line with '" + text + "' in the gateway's log", 60, () -> exchange.gatewayLog().contains(text));
        } catch (final AssertionError e) {
            throw new AssertionError(e.getMessage() + ":\n" + tail(exchange.gatewayLog()), e);
        }
    }

    private static void noExceptionInTheGatewayLog() throws IOException {
        final String log = exchange.gatewayLog();
        assertFalse(log.contains("Exception") || log.contains("error, connection dropped"), tail(log));
        assertTrue(exchange.processAlive(), "the gateway is alive");
    }

    static String tail(final String log) {
        return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
    }
}
