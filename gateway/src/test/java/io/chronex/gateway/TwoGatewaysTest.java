package io.chronex.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecType;
import quickfix.field.OrdStatus;
import quickfix.field.Side;
import quickfix.field.TimeInForce;

import java.nio.file.Path;

import static io.chronex.gateway.GatewayLifecycleTest.expectReport;
import static io.chronex.gateway.GatewayLifecycleTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two gateways on one engine: a client on each, trading with each other. Each side's report goes to
 * the gateway that serves its account, and a session configured for one gateway cannot log on at
 * the other.
 */
class TwoGatewaysTest {
    @TempDir
    Path tmp;

    @Test
    void clientsOnDifferentGatewaysTradeAndEachGetsItsOwnReports() throws Exception {
        try (Exchange exchange = new Exchange(tmp,
            "  - {senderCompId: ALICE, account: 1}\n  - {senderCompId: DAVE, account: 2, gateway: 2}\n")) {
            exchange.startEngine();
            exchange.startGateway();
            final int port2 = exchange.startGateway2();
            try (QfjClient alice = new QfjClient("ALICE", null, exchange.port, false);
                 QfjClient dave = new QfjClient("DAVE", null, port2, false)) {
                alice.awaitLogon();
                dave.awaitLogon();
                alice.send(order("A1", Side.SELL, "GLOBEX", "5", "25.10", TimeInForce.DAY));
                expectReport(alice.next(), "A1", ExecType.NEW, OrdStatus.NEW, 0, 5);
                dave.send(order("D1", Side.BUY, "GLOBEX", "2", "25.20", TimeInForce.DAY));
                expectReport(dave.next(), "D1", ExecType.NEW, OrdStatus.NEW, 0, 2);
                final Message daveTrade = dave.next();
                expectReport(daveTrade, "D1", ExecType.TRADE, OrdStatus.FILLED, 2, 0);
                assertEquals(25.1, daveTrade.getDouble(quickfix.field.LastPx.FIELD), "the resting order's price");
                expectReport(alice.next(), "A1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 2, 3);
                // DAVE belongs to gateway 2: gateway 1 refuses his logon with a Logout, in the words any unknown CompID gets.
                try (java.net.Socket socket = new java.net.Socket("127.0.0.1", exchange.port)) {
                    socket.getOutputStream().write(FixText.logon("DAVE", 1));
                    final String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                    assertTrue(answer.contains("35=5\u0001") && answer.contains("58=" + FixSession.LOGON_REFUSED + "\u0001"), answer);
                }
            }
        }
    }
}
