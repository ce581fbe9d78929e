package io.chronex.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.Side;
import quickfix.field.TimeInForce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancel on disconnect when the gateway itself dies: a session with {@code cancelOnDisconnect: true}
 * rests 100 orders, the gateway is killed with SIGKILL (so it never sees the connection go) and
 * restarted. Before it takes any logon it journals the session's mass cancel, the engine cancels all
 * 100, and the QuickFIX/J client, reconnecting by itself, gets a Canceled report for each.
 */
class GatewayCancelOnDisconnectCrashTest {
    private static final int ORDERS = 100;

    @TempDir
    Path tmp;

    @Test
    void ordersOfASessionConnectedWhenTheGatewayWasKilledAreCancelledOnRestart() throws Exception {
        try (Exchange exchange = new Exchange(tmp, "  - {senderCompId: CAROL, account: 3, cancelOnDisconnect: true}\n")) {
            exchange.startEngine();
            exchange.startGateway();
            try (QfjClient carol = new QfjClient("CAROL", null, exchange.port, false)) {
                carol.awaitLogon();
                final Set<String> ids = new HashSet<>();
                for (int i = 1; i <= ORDERS; i++) {
                    ids.add("C" + i);
                    carol.send(GatewayLifecycleTest.order("C" + i, Side.BUY, "ACME", "1",
                        String.format(Locale.ROOT, "%d.%02d", 90 + i % 9, i % 100), TimeInForce.GOOD_TILL_CANCEL));
                }
                assertEquals(ids, reports(carol, ExecType.NEW), "every order rests");

                exchange.killGateway();
                exchange.startGateway();
                // QuickFIX/J logs on again by itself; the cancels reach it live or by resend.
                assertEquals(ids, reports(carol, ExecType.CANCELED), "every resting order is cancelled");
            }
            final String log = Files.readString(exchange.dir.resolve("gateway-2.out"));
            final int cancel = log.indexOf("session CAROL: cancel on disconnect: mass cancel of account 3 journalled (it was logged on");
            final int logon = log.indexOf("session CAROL logged on");
            assertTrue(cancel >= 0, "the restarted gateway cancels for the session it lost:\n" + log);
            assertTrue(logon > cancel, "the cancel is journalled before the session can log on again:\n" + log);
        }
    }

    /** The ClOrdIDs of the next ORDERS execution reports, which must all be of this ExecType. */
    private static Set<String> reports(final QfjClient client, final char execType) throws Exception {
        final Set<String> ids = new HashSet<>();
        for (int i = 0; i < ORDERS; i++) {
            final Message m = client.next();
            assertEquals(execType, m.getChar(ExecType.FIELD), m.toString());
            ids.add(m.getString(ClOrdID.FIELD));
        }
        return ids;
    }
}
