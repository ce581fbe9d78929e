package io.chronex.gateway;

import io.chronex.testing.Await;
import io.chronex.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.OrderCancelReplaceRequest;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.chronex.gateway.GatewayLifecycleTest.cancel;
import static io.chronex.gateway.GatewayLifecycleTest.expectReport;
import static io.chronex.gateway.GatewayLifecycleTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX port over TLS: QuickFIX/J clients, set up as their users set them up (SocketUseSSL, a trust store
 * holding the exchange's certificate, the host name checked against it), run the order scenario through a
 * real gateway and engine; a client that speaks plain FIX to the TLS port is cut off without disturbing them. One exchange
 * for the class (each test leaves ALICE and BOB logged on), verified once at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayTlsTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, password: alice-secret, account: 1}
          - {senderCompId: BOB, password: bob-secret, account: 2}
        """;

    @TempDir
    static Path tmp;
    private Exchange exchange;
    private QfjClient alice;
    private QfjClient bob;
    private Map<String, String> tls;

    @BeforeAll
    void start() throws Exception {
        // Ten days: within the fortnight the gateway warns of a certificate's end in.
        final TestCertificates.Generated certificates = TestCertificates.create(tmp, 10);
        exchange = new Exchange(tmp, SESSIONS, "logonTimeoutSeconds: 2\ntls:\n  certificate: " + certificates.certificatePem()
            .getFileName() + "\n  privateKey: " + certificates.privateKeyPem().getFileName() + "\n");
        exchange.startEngine();
        exchange.startGateway();
        tls = Map.of("SocketUseSSL", "Y", "SocketTrustStore", certificates.trustStore().toString(), "SocketTrustStorePassword",
            TestCertificates.PASSWORD, "TrustStoreType", "PKCS12", "EndpointIdentificationAlgorithm", "HTTPS");
        alice = new QfjClient("ALICE", "alice-secret", exchange.port, false, tls);
        bob = new QfjClient("BOB", "bob-secret", exchange.port, false, tls);
        alice.awaitLogon();
        bob.awaitLogon();
    }

    @AfterAll
    void stop() throws Exception {
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
    void quickFixJClientsOverTlsRunTheOrderScenario() throws Exception {
        assertTrue(exchange.gatewayLog().contains("(TLS: CN=localhost, valid until "), exchange.gatewayLog());
        assertTrue(exchange.gatewayLog().contains("warning: the TLS certificate for CN=localhost ends at "), exchange.gatewayLog());
        alice.send(order("A1", Side.BUY, "ACME", "10", "100.00", TimeInForce.DAY));
        expectReport(alice.next(), "A1", ExecType.NEW, OrdStatus.NEW, 0, 10);
        bob.send(order("B1", Side.SELL, "ACME", "4", "100.00", TimeInForce.DAY));
        expectReport(bob.next(), "B1", ExecType.NEW, OrdStatus.NEW, 0, 4);
        final Message trade = bob.next();
        expectReport(trade, "B1", ExecType.TRADE, OrdStatus.FILLED, 4, 0);
        assertEquals(100.0, trade.getDouble(LastPx.FIELD));
        expectReport(alice.next(), "A1", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 4, 6);
        bob.send(order("B2", Side.SELL, "ACME", "6", "99.99", TimeInForce.DAY));
        expectReport(bob.next(), "B2", ExecType.NEW, OrdStatus.NEW, 0, 6);
        expectReport(bob.next(), "B2", ExecType.TRADE, OrdStatus.FILLED, 6, 0);
        final Message filled = alice.next();
        expectReport(filled, "A1", ExecType.TRADE, OrdStatus.FILLED, 10, 0);
        assertEquals(100.0, filled.getDouble(AvgPx.FIELD));

        alice.send(order("A2", Side.BUY, "ACME", "5", "99.50", TimeInForce.GOOD_TILL_CANCEL));
        expectReport(alice.next(), "A2", ExecType.NEW, OrdStatus.NEW, 0, 5);
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID("A2"), new ClOrdID("A3"),
            new Side(Side.BUY), new TransactTime(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol("ACME"));
        replace.set(new OrderQty(7));
        replace.set(new Price(99.60));
        alice.send(replace);
        expectReport(alice.next(), "A3", ExecType.REPLACED, OrdStatus.NEW, 0, 7);
        alice.send(cancel("A4", "A3", Side.BUY, "ACME"));
        expectReport(alice.next(), "A4", ExecType.CANCELED, OrdStatus.CANCELED, 0, 0);

        // A burst larger than one TLS record each way (16 KiB): 300 orders sent at once, 300 answers, in order.
        for (int i = 0; i < 300; i++) {
            alice.send(order("M" + i, Side.BUY, "ACME", "1", "95.00", TimeInForce.GOOD_TILL_CANCEL));
        }
        for (int i = 0; i < 300; i++) {
            expectReport(alice.next(), "M" + i, ExecType.NEW, OrdStatus.NEW, 0, 1);
        }

        // Away and back: what happened meanwhile arrives by resend over a new TLS connection.
        alice.logout();
        final int next = alice.session().getExpectedSenderNum();
        final int expected = alice.session().getExpectedTargetNum();
        alice.close();
        bob.send(order("B3", Side.SELL, "ACME", "2", "95.00", TimeInForce.DAY));
        expectReport(bob.next(), "B3", ExecType.NEW, OrdStatus.NEW, 0, 2);
        expectReport(bob.next(), "B3", ExecType.TRADE, OrdStatus.PARTIALLY_FILLED, 1, 1);
        expectReport(bob.next(), "B3", ExecType.TRADE, OrdStatus.FILLED, 2, 0);
        alice = new QfjClient("ALICE", "alice-secret", exchange.port, false, tls);
        alice.session().setNextSenderMsgSeqNum(next);
        alice.session().setNextTargetMsgSeqNum(expected);
        alice.awaitLogon();
        final Message first = alice.next();
        final Message second = alice.next();
        expectReport(first, "M0", ExecType.TRADE, OrdStatus.FILLED, 1, 0);
        expectReport(second, "M1", ExecType.TRADE, OrdStatus.FILLED, 1, 0);
        assertTrue(QfjClient.possDup(first) && QfjClient.possDup(second), "missed reports are resent with PossDupFlag=Y");
    }

    @Test
    void plainFixOnTheTlsPortIsCutOffAndDisturbsNobody() throws Exception {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress("127.0.0.1", exchange.port), 5_000);
            plain.setSoTimeout(20_000);
            final OutputStream out = plain.getOutputStream();
            out.write(FixText.logon("CAROL", 1));
            out.flush();
            final InputStream in = plain.getInputStream();
            // TLS answers a record it cannot read with an alert and closes: no FIX reaches the client in plain.
            final byte[] answer = in.readAllBytes();
            assertFalse(new String(answer, StandardCharsets.US_ASCII).contains("8=FIX"), "no plain FIX on a TLS port");
        }
        Await.until("the gateway says why it dropped the plain connection", 20,
            () -> exchange.gatewayLog().matches("(?s).*connection [^ ]+ disconnected: TLS: .*"));
        // GLOBEX, so that whichever test runs first leaves nothing in the other's book.
        alice.send(order("G1", Side.BUY, "GLOBEX", "1", "24.00", TimeInForce.DAY));
        expectReport(alice.next(), "G1", ExecType.NEW, OrdStatus.NEW, 0, 1);
    }
}
