package io.chronex.gateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A NewOrderSingle that arrives in sequence with PossDupFlag=Y (a client resending after its
 * sequence numbers were reset) must not be executed again if this session already sent that
 * ClOrdID, even after the order is gone from the book and after a gateway restart; a PossDup copy
 * of an order never received is a new order. Real engine and gateway processes, raw FIX.
 */
class GatewayPossDupTest {
    private static final String SENDER = "LOAD1";
    private static final String DUP = "43=Y\u0001122=20261123-10:00:00.000\u0001";

    @TempDir
    Path tmp;
    private Exchange exchange;

    @BeforeEach
    void start() throws Exception {
        exchange = new Exchange(tmp, "  - {senderCompId: " + SENDER + ", account: 101}\n");
        exchange.startEngine();
        exchange.startGateway();
    }

    @AfterEach
    void stop() {
        exchange.close();
    }

    @Test
    void aPossDupCopyOfAnOrderAlreadySentIsRefusedAndANewOneIsTaken() throws Exception {
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            client.send("D", order("PD-1", ""));
            assertEquals("0", client.expect("8").get(150));
            client.send("F", "41=PD-1\u000111=PD-1-X\u000155=ACME\u000154=1\u000138=1\u000160=20261123-10:00:00\u0001");
            assertEquals("4", client.expect("8").get(150), "cancelled: PD-1 is no longer live");
        }
        // The client resets and resends what it is not sure we had.
        final String firstRejectExecId;
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            client.send("D", order("PD-1", DUP));
            final FixText.Fields first = client.expect("8");
            assertDuplicate(first, "PD-1");
            firstRejectExecId = first.get(17);
            client.send("D", order("PD-2", DUP));
            final FixText.Fields fresh = client.expect("8");
            assertEquals("0", fresh.get(150), "never received: a new order, PossDup or not: " + fresh);
            assertEquals("PD-2", fresh.get(11));
        }
        assertEquals(0, exchange.stopGateway(), "SIGTERM exits 0");
        exchange.startGateway();
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            client.send("D", order("PD-1", DUP));
            final FixText.Fields again = client.expect("8");
            assertDuplicate(again, "PD-1");
            // Same session, same MsgSeqNum after the reset, another gateway process: still another ExecID.
            assertNotEquals(firstRejectExecId, again.get(17), "ExecID (17) must not repeat");
            client.send("D", order("PD-2", DUP));
            assertDuplicate(client.expect("8"), "PD-2");
        }
    }

    private static void assertDuplicate(final FixText.Fields report, final String clOrdId) {
        assertEquals("8", report.get(150), "rejected: " + report);
        assertEquals("6", report.get(103), "OrdRejReason 6, duplicate order: " + report);
        assertEquals(clOrdId, report.get(11));
        assertTrue(report.get(58).startsWith("possible duplicate (PossDupFlag=Y)"), report.get(58));
    }

    private static String order(final String clOrdId, final String possDup) {
        return possDup + "11=" + clOrdId + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=90.01\u000159=1"
            + "\u000160=20261123-10:00:00\u0001";
    }
}
