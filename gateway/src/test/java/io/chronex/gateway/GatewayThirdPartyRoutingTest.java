package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.Command;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import io.chronex.testing.Await;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Third-party routing (FIX 4.4 session test cases, "support third party addressing") through a real
 * engine and gateway over raw sockets: every answer to a message with OnBehalfOfCompID (115),
 * OnBehalfOfSubID (116) and OnBehalfOfLocationID (144) carries them back as DeliverToCompID (128),
 * DeliverToSubID (129) and DeliverToLocationID (145) right after TargetCompID, whether the session
 * answers at once (Reject, Heartbeat, Logout, a refusal at the gateway) or the engine does, much
 * later, for an order another session traded against, after a replace, and across kill -9 of the
 * gateway. Messages without 115 get none of them.
 */
class GatewayThirdPartyRoutingTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: BOB, account: 2}
        """;
    private static final String ROUTE = "115=DESK1\u0001116=TRADER7\u0001144=LDN\u0001";
    private static final String DESK1 = "|56=ALICE|128=DESK1|129=TRADER7|145=LDN|34=";

    @TempDir
    Path tmp;

    private static String order(final String id, final char side, final int qty, final String price) {
        return "11=" + id + "\u000155=ACME\u000154=" + side + "\u000138=" + qty + "\u000140=2\u000144=" + price
            + "\u000159=1\u000160=20261123-10:00:00\u0001";
    }

    private static String cancel(final String id, final String orig) {
        return "41=" + orig + "\u000111=" + id + "\u000154=1\u000155=ACME\u000160=20261123-10:00:00\u0001";
    }

    private static String replace(final String id, final String orig, final int qty, final String price) {
        return "41=" + orig + "\u000111=" + id + "\u000154=1\u000155=ACME\u000138=" + qty + "\u000140=2\u000144=" + price
            + "\u000160=20261123-10:00:00\u0001";
    }

    /** Whether the commands journal holds a command of this gateway with this ClOrdID (a new order's). */
    private static boolean journalHolds(final Exchange exchange, final String clOrdId) {
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = DataDirectory.open(exchange.data).commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return false;
                    }
                    if (CommandCodec.read(dc.wire().bytes(), c, hops) == DecodeStatus.OK
                        && c.clientOrderId == ClientOrderIds.hash(clOrdId)) {
                        return true;
                    }
                }
            }
        }
    }

    /** The next ExecutionReport, which must have this ClOrdID and ExecType. */
    private static RawFixClient.Msg report(final RawFixClient client, final String clOrdId, final String execType) throws Exception {
        final RawFixClient.Msg m = client.expect("8");
        assertEquals(clOrdId, m.get(11), m.toString());
        assertEquals(execType, m.get(150), m.toString());
        return m;
    }

    private static void routed(final RawFixClient.Msg m, final String header) {
        assertTrue(m.text.indexOf(header) > 0, "expected " + header + " in " + m.text);
    }

    /** No routing tag at all, and the header as it always was. */
    private static void unrouted(final RawFixClient.Msg m, final String target) {
        assertFalse(m.fields.containsKey(128) || m.fields.containsKey(129) || m.fields.containsKey(145), m.text.toString());
        assertTrue(m.text.indexOf("|49=CHRONEX|56=" + target + "|34=") > 0, m.text.toString());
    }

    @Test
    void everyAnswerToARoutedMessageCarriesItsRouteBackAndNothingElseDoes() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS);
             RawFixClient alice = new RawFixClient("ALICE");
             RawFixClient bob = new RawFixClient("BOB")) {
            exchange.startEngine();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            bob.connect(exchange.port, 0);
            bob.logOn(true);

            // A routed order rests; another session's unrouted order trades with it later: the fill goes to the desk too.
            alice.send("D", ROUTE + order("A1", '1', 10, "100.00"));
            alice.flush();
            final RawFixClient.Msg acknowledged = report(alice, "A1", "0");
            routed(acknowledged, DESK1);
            bob.send("D", order("B1", '2', 4, "100.00"));
            bob.flush();
            unrouted(report(bob, "B1", "0"), "BOB");
            unrouted(report(bob, "B1", "F"), "BOB");
            routed(report(alice, "A1", "F"), DESK1);

            // A cancel is answered with its own route, not the order's.
            alice.send("F", "115=DESK2\u0001" + cancel("C1", "A1"));
            alice.flush();
            final RawFixClient.Msg cancelled = report(alice, "C1", "4");
            assertEquals("A1", cancelled.get(41));
            routed(cancelled, "|56=ALICE|128=DESK2|34=");
            alice.send("F", "115=DESK3\u0001144=NYC\u0001" + cancel("C2", "NOPE"));
            alice.flush();
            final RawFixClient.Msg refused = alice.expect("9");
            routed(refused, "|56=ALICE|128=DESK3|145=NYC|34=");

            // A replace gives the order the replace's route; a later fill carries it. One without 115 leaves it none.
            alice.send("D", ROUTE + order("A2", '1', 5, "99.00"));
            alice.send("G", "115=DESK4\u0001" + replace("A2R", "A2", 6, "99.00"));
            alice.send("D", ROUTE + order("A3", '1', 5, "98.00"));
            alice.send("G", replace("A3R", "A3", 6, "98.00"));
            alice.flush();
            routed(report(alice, "A2", "0"), DESK1);
            routed(report(alice, "A2R", "5"), "|56=ALICE|128=DESK4|34=");
            routed(report(alice, "A3", "0"), DESK1);
            unrouted(report(alice, "A3R", "5"), "ALICE");
            bob.send("D", order("B2", '2', 12, "98.00"));
            bob.flush();
            routed(report(alice, "A2R", "F"), "|56=ALICE|128=DESK4|34=");
            unrouted(report(alice, "A3R", "F"), "ALICE");

            // Answered at once by the session or the gateway: a Reject (a NewOrderSingle without ClOrdID), the Heartbeat
            // answering a TestRequest, an order refused at the gateway (unknown symbol).
            alice.send("D", ROUTE + "55=ACME\u000154=1\u000138=1\u000140=2\u000144=1.00\u000160=20261123-10:00:00\u0001");
            alice.send("1", "115=DESK1\u0001112=PING\u0001");
            alice.send("D", ROUTE + order("A4", '1', 1, "1.00").replace("55=ACME", "55=NOSUCH"));
            alice.flush();
            final RawFixClient.Msg reject = alice.expect("3");
            assertEquals("1", reject.get(373), reject.toString());
            assertEquals("11", reject.get(371), reject.toString());
            routed(reject, DESK1);
            final RawFixClient.Msg heartbeat = alice.expect("0");
            assertEquals("PING", heartbeat.get(112));
            routed(heartbeat, "|56=ALICE|128=DESK1|34=");
            routed(report(alice, "A4", "8"), DESK1);

            // A value breaking the rule: the message is rejected as malformed (373=6 on that tag), and nothing is echoed.
            alice.send("1", "115=DESK 1\u0001112=BAD\u0001");
            alice.send("1", "115=DESK1\u0001116=" + "T".repeat(65) + "\u0001112=BAD\u0001");
            alice.flush();
            for (final String tag : new String[] {"115", "116"}) {
                final RawFixClient.Msg bad = alice.expect("3");
                assertEquals("6", bad.get(373), bad.toString());
                assertEquals(tag, bad.get(371), bad.toString());
                assertTrue(bad.get(58).contains("1..64 printable ASCII"), bad.toString());
                unrouted(bad, "ALICE");
            }

            // A mass cancel: its report carries its route, each order's cancel the order's own (or none).
            alice.send("D", ROUTE + order("A5", '1', 1, "97.00"));
            alice.send("D", order("A6", '1', 1, "97.00"));
            alice.send("q", "115=DESK5\u000111=M1\u0001530=7\u000160=20261123-10:00:00\u0001");
            alice.flush();
            routed(report(alice, "A5", "0"), DESK1);
            unrouted(report(alice, "A6", "0"), "ALICE");
            final RawFixClient.Msg massReport = alice.expect("r");
            routed(massReport, "|56=ALICE|128=DESK5|34=");
            // Each cancelled order's report in whatever order the engine cancelled them.
            for (int i = 0; i < 2; i++) {
                final RawFixClient.Msg x = alice.expect("8");
                assertEquals("4", x.get(150), x.toString());
                if ("A5".equals(x.get(11))) {
                    routed(x, DESK1);
                } else {
                    assertEquals("A6", x.get(11), x.toString());
                    unrouted(x, "ALICE");
                }
            }

            // A resend is the stored message: the route is in it.
            alice.send("2", "7=" + acknowledged.seq() + "\u000116=" + acknowledged.seq() + "\u0001");
            alice.flush();
            final RawFixClient.Msg resent = alice.expect("8");
            assertEquals(acknowledged.seq(), resent.seq());
            assertEquals("Y", resent.get(43));
            assertEquals("DESK1", resent.get(128));
            assertEquals("TRADER7", resent.get(129));
            assertEquals("LDN", resent.get(145));

            // The Logout answering a routed Logout.
            alice.send("5", "115=DESK1\u0001");
            alice.flush();
            routed(alice.expect("5"), "|56=ALICE|128=DESK1|34=");
            assertTrue(alice.closedByPeer());
        }
    }

    /**
     * kill -9 of the gateway after it accepted a routed order: the fill after the restart carries the route. Then a routed
     * order journalled while the engine is down, the gateway killed and restarted before the engine answers it: the
     * answer, made by the new gateway process, carries the order's route, and so does its fill.
     */
    @Test
    void routesSurviveKillingTheGateway() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS);
             RawFixClient alice = new RawFixClient("ALICE");
             RawFixClient bob = new RawFixClient("BOB")) {
            exchange.startEngine();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            alice.send("D", ROUTE + order("K1", '1', 10, "100.00"));
            alice.flush();
            routed(report(alice, "K1", "0"), DESK1);

            exchange.killGateway();
            alice.disconnect();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(false);
            bob.connect(exchange.port, 0);
            bob.logOn(true);
            bob.send("D", order("B1", '2', 10, "100.00"));
            bob.flush();
            unrouted(report(bob, "B1", "0"), "BOB");
            routed(report(alice, "K1", "F"), DESK1);

            exchange.killEngine();
            alice.send("D", "115=DESK9\u0001" + order("K2", '1', 3, "100.00"));
            alice.flush();
            Await.until("K2 in the journal", 30, () -> journalHolds(exchange, "K2"));
            exchange.killGateway();
            alice.disconnect();
            bob.disconnect();
            exchange.startGateway();
            assertTrue(exchange.gatewayLog().contains("routed requests: 1 awaiting their answer at the stop (0 without their journal"
                + " index), 1 still are"), exchange.gatewayLog());
            alice.connect(exchange.port, 0);
            alice.logOn(false);
            bob.connect(exchange.port, 0);
            bob.logOn(false);
            // The answer is made by this gateway process, from the request's route kept across the kill.
            exchange.startEngine();
            routed(report(alice, "K2", "0"), "|56=ALICE|128=DESK9|34=");
            bob.send("D", order("B2", '2', 3, "100.00"));
            bob.flush();
            routed(report(alice, "K2", "F"), "|56=ALICE|128=DESK9|34=");
        }
    }

    /**
     * A routes file that lost routes an order still names (deleted, cut, an older copy put back) would send that order's
     * reports to whichever desk gets the number next: the gateway refuses to start, naming the file.
     */
    @Test
    void aRoutesFileWithoutARouteAnOrderNamesRefusesTheStart() throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        Files.writeString(tmp.resolve("gateway.yaml"), "port: 0\nengineConfig: engine.yaml\nsessions:\n" + SESSIONS);
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        final Path dir = data.gatewayDir(1);
        try (Routes routes = new Routes(dir.resolve("routes"));
             ClOrdIdTable table = new ClOrdIdTable(dir.resolve("clordids.table"))) {
            final UnsafeBuffer desk = new UnsafeBuffer("DESK1".getBytes(StandardCharsets.US_ASCII));
            assertEquals(1, routes.id(desk, 0, 5, 0, 0, 0, 0));
            final UnsafeBuffer id = new UnsafeBuffer("A1".getBytes(StandardCharsets.US_ASCII));
            table.claim(1, ClientOrderIds.hash("A1"), id, 0, 2);
            table.route(1, ClientOrderIds.hash("A1"), 2);
        }
        final GatewayConfig config = GatewayConfig.load(tmp.resolve("gateway.yaml"));
        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> new Gateway(config, 1, 0, data, line -> { }).close());
        assertTrue(e.getMessage().startsWith(dir.resolve("routes") + " holds 1 routes, but clordids.table names route 2"),
            e.getMessage());
        assertFalse(Files.exists(dir.resolve("sessions.state")), "the refusal leaves no fresh state file behind");
    }
}
