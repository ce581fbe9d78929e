package io.chronex.gateway;

import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.testing.Await;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.CxlRejReason;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.OrderCancelReplaceRequest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.chronex.gateway.GatewayLifecycleTest.cancel;
import static io.chronex.gateway.GatewayLifecycleTest.expectReport;
import static io.chronex.gateway.GatewayLifecycleTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ClOrdIDs as real FIX clients make them (`Run42-A1`, UUIDs, 64 characters), through QuickFIX/J
 * 2.3.2, a real gateway and a real engine on the shipped configuration: each is echoed byte for
 * byte in every report, the rule is enforced with its Text, the journal holds the texts, and the
 * texts survive kill -9 of the gateway and the engine.
 */
class GatewayClOrdIdTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, password: alice-secret, account: 1}
          - {senderCompId: BOB, account: 2}
        """;
    private static final String UUID_ID = "123e4567-e89b-12d3-a456-426614174000";
    /** 64 characters, the longest accepted. */
    private static final String LONGEST = "Run42-A1-" + UUID_ID + "-0123456789-xyzXYZW";

    @TempDir
    Path tmp;
    private Exchange exchange;
    private QfjClient alice;
    private QfjClient bob;

    private void start() throws Exception {
        exchange = new Exchange(tmp, SESSIONS);
        exchange.startEngine();
        exchange.startGateway();
        alice = new QfjClient("ALICE", "alice-secret", exchange.port, false);
        bob = new QfjClient("BOB", null, exchange.port, false);
        alice.awaitLogon();
        bob.awaitLogon();
    }

    @AfterEach
    void stop() {
        if (alice != null) {
            alice.close();
        }
        if (bob != null) {
            bob.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    @Test
    void realClientIdsAreEchoedInEveryReportAndJournalled() throws Exception {
        assertEquals(64, LONGEST.length());
        start();
        // New, and a partial fill from another session: the resting maker's own text comes back to it.
        alice.send(order("Run42-A1", Side.BUY, "ACME", "10", "100.00", TimeInForce.DAY));
        expectReport(alice.next(), "Run42-A1", ExecType.NEW, OrdStatus.NEW, 0, 10);
        bob.send(order(UUID_ID, Side.SELL, "ACME", "4", "100.00", TimeInForce.DAY));
        expectReport(bob.next(), UUID_ID, ExecType.NEW, OrdStatus.NEW, 0, 4);
        expectReport(bob.next(), UUID_ID, ExecType.TRADE, OrdStatus.FILLED, 4, 0);
        expectReport(alice.next(), "Run42-A1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 4, 6);

        // The same ClOrdID again while the order is live: refused by the engine as a duplicate.
        alice.send(order("Run42-A1", Side.BUY, "ACME", "1", "99.00", TimeInForce.DAY));
        Message rejected = alice.next();
        expectReport(rejected, "Run42-A1", ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
        assertEquals(OrdRejReason.DUPLICATE_ORDER, rejected.getInt(OrdRejReason.FIELD));
        assertEquals("DUPLICATE_CLIENT_ORDER_ID", rejected.getString(Text.FIELD));

        // 65 characters, and a space: refused at the gateway with the rule, the text echoed as sent.
        for (final String bad : new String[] {LONGEST + "9", "Run 42"}) {
            alice.send(order(bad, Side.BUY, "ACME", "1", "99.00", TimeInForce.DAY));
            rejected = alice.next();
            expectReport(rejected, bad, ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
            assertEquals(OrdRejReason.OTHER, rejected.getInt(OrdRejReason.FIELD));
            assertEquals(ClientOrderIds.RULE, rejected.getString(Text.FIELD));
        }

        // Replace to a new text: Replaced with ClOrdID new, OrigClOrdID old; a later fill carries the new text.
        alice.send(replace("Run42-A1/r1", "Run42-A1", 12));
        final Message replaced = alice.next();
        expectReport(replaced, "Run42-A1/r1", ExecType.REPLACED, OrdStatus.PARTIALLY_FILLED, 4, 8);
        assertEquals("Run42-A1", replaced.getString(OrigClOrdID.FIELD));
        bob.send(order("20261123-000017", Side.SELL, "ACME", "2", "100.00", TimeInForce.DAY));
        expectReport(bob.next(), "20261123-000017", ExecType.NEW, OrdStatus.NEW, 0, 2);
        expectReport(bob.next(), "20261123-000017", ExecType.TRADE, OrdStatus.FILLED, 2, 0);
        expectReport(alice.next(), "Run42-A1/r1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 6, 6);

        // A replace whose new ClOrdID is too long: OrderCancelReject (434=2) with the rule, both ids echoed.
        alice.send(replace(LONGEST + "9", "Run42-A1/r1", 12));
        Message cancelReject = alice.next();
        expectCancelReject(cancelReject, LONGEST + "9", "Run42-A1/r1", CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST, CxlRejReason.OTHER);
        assertEquals(ClientOrderIds.RULE, cancelReject.getString(Text.FIELD));

        // Cancel by the new text: Canceled with the request's ClOrdID and the OrigClOrdID.
        alice.send(cancel(LONGEST, "Run42-A1/r1", Side.BUY, "ACME"));
        final Message canceled = alice.next();
        expectReport(canceled, LONGEST, ExecType.CANCELED, OrdStatus.CANCELED, 6, 0);
        assertEquals("Run42-A1/r1", canceled.getString(OrigClOrdID.FIELD));
        // Again: the order is gone; OrderCancelReject (434=1, unknown order) with both ids.
        alice.send(cancel("cxl-2", "Run42-A1/r1", Side.BUY, "ACME"));
        cancelReject = alice.next();
        expectCancelReject(cancelReject, "cxl-2", "Run42-A1/r1", CxlRejResponseTo.ORDER_CANCEL_REQUEST, CxlRejReason.UNKNOWN_ORDER);

        // Run42-A1 is free again once its order is done (renamed, then cancelled): a new order may use it.
        alice.send(order("Run42-A1", Side.BUY, "ACME", "3", "99.00", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), "Run42-A1", ExecType.NEW, OrdStatus.NEW, 0, 3);
        alice.send(order(UUID_ID, Side.BUY, "ACME", "1", "98.00", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), UUID_ID, ExecType.NEW, OrdStatus.NEW, 0, 1);
        // A mass cancel: its report carries its ClOrdID, each Canceled report its order's.
        final quickfix.fix44.OrderMassCancelRequest mass = new quickfix.fix44.OrderMassCancelRequest(new ClOrdID("mass/1:all"),
            new quickfix.field.MassCancelRequestType(quickfix.field.MassCancelRequestType.CANCEL_ALL_ORDERS), new TransactTime());
        alice.send(mass);
        final List<String> massCanceled = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            final Message m = alice.next();
            if (m.getHeader().getString(MsgType.FIELD).equals(MsgType.ORDER_MASS_CANCEL_REPORT)) {
                assertEquals("mass/1:all", m.getString(ClOrdID.FIELD));
                assertEquals(2, m.getInt(quickfix.field.TotalAffectedOrders.FIELD));
            } else {
                assertEquals(ExecType.CANCELED, m.getChar(ExecType.FIELD), m.toString());
                assertFalse(m.isSetField(OrigClOrdID.FIELD), m.toString());
                massCanceled.add(m.getString(ClOrdID.FIELD));
            }
        }
        massCanceled.sort(null);
        assertEquals(List.of(UUID_ID, "Run42-A1"), massCanceled);

        // Logout is answered.
        alice.logout();
        assertTrue(alice.events.stream().anyMatch(e -> e.startsWith("5")), "a Logout answer: " + alice.events);

        assertJournalHolds(CommandType.NEW_ORDER, "Run42-A1", "");
        assertJournalHolds(CommandType.REPLACE, "Run42-A1", "Run42-A1/r1");
        assertJournalHolds(CommandType.CANCEL, "Run42-A1/r1", LONGEST);
        assertJournalHolds(CommandType.MASS_CANCEL, "", "mass/1:all");
    }

    @Test
    void aLongTextSurvivesKillMinusNineOfTheGatewayAndTheEngine() throws Exception {
        start();
        alice.send(order(LONGEST, Side.BUY, "ACME", "5", "100.00", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), LONGEST, ExecType.NEW, OrdStatus.NEW, 0, 5);

        exchange.killGateway();
        exchange.killEngine();
        exchange.startEngine();
        exchange.startGateway();
        awaitLoggedOnAgain(alice);
        awaitLoggedOnAgain(bob);

        // A fill from another session reports the original text to the maker.
        bob.send(order("B-after-restart", Side.SELL, "ACME", "2", "100.00", TimeInForce.DAY));
        expectReport(bob.next(), "B-after-restart", ExecType.NEW, OrdStatus.NEW, 0, 2);
        expectReport(bob.next(), "B-after-restart", ExecType.TRADE, OrdStatus.FILLED, 2, 0);
        expectReport(alice.next(), LONGEST, ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 2, 3);
        // And a cancel by the OrigClOrdID text reaches it.
        alice.send(cancel("cxl-after-restart", LONGEST, Side.BUY, "ACME"));
        final Message canceled = alice.next();
        expectReport(canceled, "cxl-after-restart", ExecType.CANCELED, OrdStatus.CANCELED, 2, 0);
        assertEquals(LONGEST, canceled.getString(OrigClOrdID.FIELD));
    }

    private static void awaitLoggedOnAgain(final QfjClient client) throws Exception {
        Await.until("the QuickFIX/J client logged out and on again", 30, () -> client.loggedOn && client.events.contains("logout"));
        client.awaitLogon();
    }

    private static OrderCancelReplaceRequest replace(final String id, final String orig, final int qty) {
        final OrderCancelReplaceRequest r = new OrderCancelReplaceRequest(new OrigClOrdID(orig), new ClOrdID(id), new Side(Side.BUY),
            new TransactTime(), new OrdType(OrdType.LIMIT));
        r.set(new Symbol("ACME"));
        r.set(new OrderQty(qty));
        r.set(new Price(100.00));
        return r;
    }

    private static void expectCancelReject(final Message m, final String id, final String orig, final char responseTo, final int reason)
        throws FieldNotFound {
        assertEquals(MsgType.ORDER_CANCEL_REJECT, m.getHeader().getString(MsgType.FIELD), m.toString());
        assertEquals(id, m.getString(ClOrdID.FIELD), m.toString());
        assertEquals(orig, m.getString(OrigClOrdID.FIELD), m.toString());
        assertEquals(responseTo, m.getChar(CxlRejResponseTo.FIELD), m.toString());
        assertEquals(reason, m.getInt(CxlRejReason.FIELD), m.toString());
    }

    /** The commands journal, read back with the codec, has a command of this type with these texts and the ids they hash to. */
    private void assertJournalHolds(final CommandType type, final String clientOrderIdText, final String newClientOrderIdText) {
        final DataDirectory data = DataDirectory.open(exchange.data);
        final Command c = new Command();
        final Hops hops = new Hops();
        final CommandText text = new CommandText();
        final List<String> seen = new ArrayList<>();
        try (var commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (io.chronex.queues.ConfigRecord.is(dc.wire().bytes(), dc.wire().bytes().readPosition(),
                        dc.wire().bytes().readRemaining())) {
                        continue; // the engine's configuration record, not a command
                    }
                    assertEquals(DecodeStatus.OK, CommandCodec.read(dc.wire().bytes(), c, hops, text));
                    seen.add(c.type + " " + text);
                    if (c.type == type && text.clientOrderIdText().equals(clientOrderIdText)
                        && text.newClientOrderIdText().equals(newClientOrderIdText)) {
                        assertEquals(clientOrderIdText.isEmpty() ? 0 : ClientOrderIds.hash(clientOrderIdText), c.clientOrderId);
                        assertEquals(newClientOrderIdText.isEmpty() ? 0 : ClientOrderIds.hash(newClientOrderIdText), c.newClientOrderId);
                        return;
                    }
                }
            }
        }
        throw new AssertionError("no " + type + " with texts " + clientOrderIdText + ", " + newClientOrderIdText + " in " + seen);
    }
}
