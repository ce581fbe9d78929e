package io.chronex.gateway;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.JournalSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.Side;
import quickfix.field.TimeInForce;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kill -9 of the gateway while a QuickFIX/J client streams orders, three times, restarting it each
 * time. QuickFIX/J keeps sending into its own store while the gateway is down and resends on logon;
 * in the end every order is in the journal exactly once and its ExecutionReport reached the client
 * exactly once.
 */
class GatewayKillTest {
    private static final int ORDERS = 3000;

    @TempDir
    Path tmp;

    @Test
    void everyOrderJournalledOnceAndEveryReportDeliveredAcrossGatewayKills() throws Exception {
        try (Exchange exchange = new Exchange(tmp, "  - {senderCompId: ALICE, account: 101}\n");
             QfjClient alice = startAll(exchange)) {
            final Map<String, Integer> reports = new HashMap<>();
            int kills = 0;
            for (int i = 1; i <= ORDERS; i++) {
                // Distinct resting prices: no trades, so each order has exactly one report (New).
                final Message order = GatewayLifecycleTest.order("K" + i, Side.BUY, "ACME", "1",
                    String.format("%d.%02d", 90 + i % 9, i % 100), TimeInForce.GOOD_TILL_CANCEL);
                // While the gateway is down QuickFIX/J stores the order and sends it after the next logon.
                Session.lookupSession(alice.sessionId).send(order);
                if (i % 1000 == 500) {
                    exchange.killGateway();
                    kills++;
                    exchange.startGateway();
                }
                drain(alice, reports, 0);
                if (i % 2 == 0) {
                    Thread.sleep(1);
                }
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (reports.size() < ORDERS && System.nanoTime() < deadline) {
                drain(alice, reports, 100);
            }
            assertEquals(3, kills);
            assertEquals(ORDERS, reports.size(), "orders with a report; client events: " + alice.events + "\n" + exchange.gatewayLog());
            for (final Map.Entry<String, Integer> e : reports.entrySet()) {
                assertEquals(1, e.getValue(), "reports for " + e.getKey());
            }
            final String summary = JournalSummary.summarize(DataDirectory.open(exchange.data)).resultLine();
            // The journal: the funding's deposits (Exchange), then every order once.
            final int commands = Exchange.FUNDING_COMMANDS + ORDERS;
            assertTrue(summary.contains("RESULT commands=" + commands + " answered=" + commands + " duplicates=0 missing=0 trades=0"),
                summary);
        }
    }

    private static QfjClient startAll(final Exchange exchange) throws Exception {
        exchange.startEngine();
        exchange.startGateway();
        final QfjClient client = new QfjClient("ALICE", null, exchange.port, false);
        client.awaitLogon();
        return client;
    }

    private static void drain(final QfjClient client, final Map<String, Integer> reports, final long waitMillis) throws Exception {
        Message m = client.received.poll(waitMillis, TimeUnit.MILLISECONDS);
        while (m != null) {
            assertEquals(ExecType.NEW, m.getChar(ExecType.FIELD), m.toString());
            reports.merge(m.getString(ClOrdID.FIELD), 1, Integer::sum);
            m = client.received.poll();
        }
    }
}
