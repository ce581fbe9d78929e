package io.chronex.gateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
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
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole order lifecycle between two QuickFIX/J clients through a real gateway and a real
 * engine: rest, partial fill, fill, replace, cancel, the usual mistakes, a logout with trades
 * missed while away, and a gateway restart with sequence numbers carried on.
 */
class GatewayLifecycleTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, password: alice-secret, account: 1}
          - {senderCompId: BOB, account: 2}
          - {senderCompId: CAROL, account: 3, cancelOnDisconnect: true}
        """;

    @TempDir
    Path tmp;
    private Exchange exchange;
    private QfjClient alice;
    private QfjClient bob;

    @BeforeEach
    void start() throws Exception {
        exchange = new Exchange(tmp, SESSIONS);
        exchange.startEngine();
        exchange.startGateway();
        alice = new QfjClient("ALICE", "alice-secret", exchange.port, false);
        bob = new QfjClient("BOB", null, exchange.port, false);
        alice.awaitLogon();
        bob.awaitLogon();
    }

    @AfterEach
    void stop() throws Exception {
        if (alice != null) {
            alice.close();
        }
        if (bob != null) {
            bob.close();
        }
        exchange.close();
    }

    @Test
    void orderLifecycleBetweenTwoSessions() throws Exception {
        // ALICE rests 10 @ 100.00.
        alice.send(order("A1", Side.BUY, "ACME", "10", "100.00", TimeInForce.DAY));
        expectReport(alice.next(), "A1", ExecType.NEW, OrdStatus.NEW, 0, 10);

        // BOB sells 4 at 100.00: a partial fill for ALICE, a full fill for BOB, at the resting price.
        bob.send(order("B1", Side.SELL, "ACME", "4", "100.00", TimeInForce.DAY));
        expectReport(bob.next(), "B1", ExecType.NEW, OrdStatus.NEW, 0, 4);
        Message trade = bob.next();
        expectReport(trade, "B1", ExecType.TRADE, OrdStatus.FILLED, 4, 0);
        assertEquals(100.0, trade.getDouble(LastPx.FIELD));
        assertEquals(4.0, trade.getDouble(LastQty.FIELD));
        expectReport(alice.next(), "A1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 4, 6);

        // BOB sells 6 at 99.99: trades at ALICE's 100.00 and fills her.
        bob.send(order("B2", Side.SELL, "ACME", "6", "99.99", TimeInForce.DAY));
        expectReport(bob.next(), "B2", ExecType.NEW, OrdStatus.NEW, 0, 6);
        trade = bob.next();
        expectReport(trade, "B2", ExecType.TRADE, OrdStatus.FILLED, 6, 0);
        assertEquals(100.0, trade.getDouble(LastPx.FIELD));
        final Message aliceFilled = alice.next();
        expectReport(aliceFilled, "A1", ExecType.TRADE, OrdStatus.FILLED, 10, 0);
        assertEquals(100.0, aliceFilled.getDouble(quickfix.field.AvgPx.FIELD));

        // Replace: 5 @ 99.50 becomes 7 @ 99.60 under a new ClOrdID; then cancel it.
        alice.send(order("A2", Side.BUY, "ACME", "5", "99.50", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), "A2", ExecType.NEW, OrdStatus.NEW, 0, 5);
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID("A2"), new ClOrdID("A3"),
            new Side(Side.BUY), new TransactTime(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol("ACME"));
        replace.set(new OrderQty(7));
        replace.set(new Price(99.60));
        alice.send(replace);
        final Message replaced = alice.next();
        expectReport(replaced, "A3", ExecType.REPLACED, OrdStatus.NEW, 0, 7);
        assertEquals("A2", replaced.getString(OrigClOrdID.FIELD));
        assertEquals(99.6, replaced.getDouble(Price.FIELD));

        alice.send(cancel("A4", "A3", Side.BUY, "ACME"));
        final Message canceled = alice.next();
        expectReport(canceled, "A4", ExecType.CANCELED, OrdStatus.CANCELED, 0, 0);
        assertEquals("A3", canceled.getString(OrigClOrdID.FIELD));

        // Cancel of an order that does not exist.
        alice.send(cancel("A5", "NOPE", Side.BUY, "ACME"));
        final Message cancelReject = alice.next();
        assertEquals(MsgType.ORDER_CANCEL_REJECT, cancelReject.getHeader().getString(MsgType.FIELD));
        assertEquals(CxlRejReason.UNKNOWN_ORDER, cancelReject.getInt(CxlRejReason.FIELD));
        assertEquals(CxlRejResponseTo.ORDER_CANCEL_REQUEST, cancelReject.getChar(CxlRejResponseTo.FIELD));
        assertEquals("A5", cancelReject.getString(ClOrdID.FIELD));

        // Unknown symbol: rejected with the reason, nothing journalled.
        alice.send(order("A6", Side.BUY, "NOSUCH", "1", "1.00", TimeInForce.DAY));
        Message rejected = alice.next();
        expectReport(rejected, "A6", ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
        assertEquals(OrdRejReason.UNKNOWN_SYMBOL, rejected.getInt(OrdRejReason.FIELD));

        // IOC with nothing to match: accepted, then its whole quantity cancelled.
        alice.send(order("A7", Side.BUY, "GLOBEX", "3", "25.00", TimeInForce.IMMEDIATE_OR_CANCEL));
        expectReport(alice.next(), "A7", ExecType.NEW, OrdStatus.NEW, 0, 3);
        expectReport(alice.next(), "A7", ExecType.CANCELED, OrdStatus.CANCELED, 0, 0);

        // Negative quantity and an off-tick price: rejected, never rounded.
        alice.send(order("A8", Side.BUY, "ACME", "-5", "100.00", TimeInForce.DAY));
        rejected = alice.next();
        expectReport(rejected, "A8", ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
        assertEquals(OrdRejReason.INCORRECT_QUANTITY, rejected.getInt(OrdRejReason.FIELD));
        alice.send(order("A9", Side.BUY, "ACME", "5", "100.005", TimeInForce.DAY));
        rejected = alice.next();
        expectReport(rejected, "A9", ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
        assertTrue(rejected.getString(Text.FIELD).contains("not on the tick"), rejected.getString(Text.FIELD));

        // Risk: the engine's own reject travels back with its reason (price band +-10% around 100.00).
        alice.send(order("A10", Side.BUY, "ACME", "5", "150.00", TimeInForce.DAY));
        rejected = alice.next();
        expectReport(rejected, "A10", ExecType.REJECTED, OrdStatus.REJECTED, 0, 0);
        assertEquals("PRICE_OUTSIDE_BAND", rejected.getString(Text.FIELD));
    }

    @Test
    void whatHappensWhileAwayArrivesByResendAfterLogon() throws Exception {
        alice.send(order("R1", Side.BUY, "ACME", "10", "100.00", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), "R1", ExecType.NEW, OrdStatus.NEW, 0, 10);
        alice.logout();
        alice.close();

        bob.send(order("S1", Side.SELL, "ACME", "3", "100.00", TimeInForce.DAY));
        bob.send(order("S2", Side.SELL, "ACME", "7", "100.00", TimeInForce.DAY));
        for (int i = 0; i < 4; i++) {
            bob.next();
        }

        // A new QuickFIX/J instance with fresh memory: logs on without reset and asks for what it missed.
        alice = new QfjClient("ALICE", "alice-secret", exchange.port, false);
        alice.session().setNextSenderMsgSeqNum(3 + 1);
        alice.session().setNextTargetMsgSeqNum(3);
        alice.awaitLogon();
        final Message first = alice.next();
        final Message second = alice.next();
        expectReport(first, "R1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 3, 7);
        expectReport(second, "R1", ExecType.TRADE, OrdStatus.FILLED, 10, 0);
        assertTrue(QfjClient.possDup(first) && QfjClient.possDup(second), "missed reports are resent with PossDupFlag=Y");
    }

    @Test
    void sequenceNumbersSurviveAGatewayRestart() throws Exception {
        alice.send(order("Q1", Side.BUY, "ACME", "1", "99.00", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), "Q1", ExecType.NEW, OrdStatus.NEW, 0, 1);
        final int sentBefore = alice.session().getExpectedSenderNum();
        assertEquals(0, exchange.stopGateway(), "SIGTERM exits 0");
        exchange.startGateway();
        // QuickFIX/J reconnects by itself and logs on with its next sequence numbers, no reset.
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!(alice.loggedOn && alice.events.contains("logout")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        alice.awaitLogon();
        assertTrue(alice.session().getExpectedSenderNum() > sentBefore, "sequence numbers went on");
        alice.send(order("Q2", Side.BUY, "ACME", "1", "99.00", TimeInForce.GOOD_TILL_CANCEL));
        final Message q2;
        try {
            q2 = alice.next();
        } catch (final AssertionError e) {
            // Seen once in a fresh-clone run (2026-12-06) and not since: say what both sides saw if it comes again.
            throw new AssertionError(e.getMessage() + "\n--- the gateway's logs:\n" + exchange.gatewayLog(), e);
        }
        expectReport(q2, "Q2", ExecType.NEW, OrdStatus.NEW, 0, 1);
        assertTrue(!exchange.gatewayLog().contains("MsgSeqNum too low"), exchange.gatewayLog());
    }

    @Test
    void massCancelAndCancelOnDisconnect() throws Exception {
        try (QfjClient carol = new QfjClient("CAROL", null, exchange.port, false)) {
            carol.awaitLogon();
            carol.send(order("C1", Side.BUY, "ACME", "1", "99.00", TimeInForce.GOOD_TILL_CANCEL));
            carol.send(order("C2", Side.BUY, "ACME", "2", "98.00", TimeInForce.GOOD_TILL_CANCEL));
            carol.send(order("C3", Side.BUY, "GLOBEX", "3", "24.00", TimeInForce.GOOD_TILL_CANCEL));
            for (int i = 0; i < 3; i++) {
                assertEquals(ExecType.NEW, carol.next().getChar(ExecType.FIELD));
            }
            final quickfix.fix44.OrderMassCancelRequest mass = new quickfix.fix44.OrderMassCancelRequest(new ClOrdID("M1"),
                new quickfix.field.MassCancelRequestType(quickfix.field.MassCancelRequestType.CANCEL_ORDERS_FOR_A_SECURITY),
                new TransactTime());
            mass.set(new Symbol("ACME"));
            carol.send(mass);
            final java.util.Set<String> canceled = new java.util.HashSet<>();
            Message report = null;
            for (int i = 0; i < 3; i++) {
                final Message m = carol.next();
                if (m.getHeader().getString(MsgType.FIELD).equals(MsgType.ORDER_MASS_CANCEL_REPORT)) {
                    report = m;
                } else {
                    assertEquals(ExecType.CANCELED, m.getChar(ExecType.FIELD), m.toString());
                    canceled.add(m.getString(ClOrdID.FIELD));
                }
            }
            assertTrue(report != null, "an OrderMassCancelReport");
            assertEquals("M1", report.getString(ClOrdID.FIELD));
            assertEquals(2, report.getInt(quickfix.field.TotalAffectedOrders.FIELD));
            assertEquals(java.util.Set.of("C1", "C2"), canceled, "only ACME's orders");
        }
        // CAROL is gone (QuickFIX/J logged out and closed): cancel on disconnect takes C3 off the book.
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (!exchange.gatewayLog().contains("session CAROL: cancel on disconnect") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        bob.send(order("B9", Side.SELL, "GLOBEX", "3", "24.00", TimeInForce.IMMEDIATE_OR_CANCEL));
        expectReport(bob.next(), "B9", ExecType.NEW, OrdStatus.NEW, 0, 3);
        expectReport(bob.next(), "B9", ExecType.CANCELED, OrdStatus.CANCELED, 0, 0);
    }

    static NewOrderSingle order(final String id, final char side, final String symbol, final String qty, final String price,
                                final char tif) {
        final NewOrderSingle o = new NewOrderSingle(new ClOrdID(id), new Side(side), new TransactTime(), new OrdType(OrdType.LIMIT));
        o.set(new Symbol(symbol));
        o.setString(OrderQty.FIELD, qty);
        o.setString(Price.FIELD, price);
        o.set(new TimeInForce(tif));
        return o;
    }

    static OrderCancelRequest cancel(final String id, final String orig, final char side, final String symbol) {
        final OrderCancelRequest c = new OrderCancelRequest(new OrigClOrdID(orig), new ClOrdID(id), new Side(side), new TransactTime());
        c.set(new Symbol(symbol));
        return c;
    }

    static void expectReport(final Message m, final String clOrdId, final char execType, final char ordStatus, final double cum,
                             final double leaves) throws FieldNotFound {
        assertEquals(MsgType.EXECUTION_REPORT, m.getHeader().getString(MsgType.FIELD), m.toString());
        assertEquals(clOrdId, m.getString(ClOrdID.FIELD), m.toString());
        assertEquals(execType, m.getChar(ExecType.FIELD), m.toString());
        assertEquals(ordStatus, m.getChar(OrdStatus.FIELD), m.toString());
        assertEquals(cum, m.getDouble(CumQty.FIELD), m.toString());
        assertEquals(leaves, m.getDouble(LeavesQty.FIELD), m.toString());
    }
}
