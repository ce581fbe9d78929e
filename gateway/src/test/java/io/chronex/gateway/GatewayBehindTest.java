package io.chronex.gateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that falls behind (it sends 40,000 orders before reading any answer, so ~10 MB of reports
 * wait in the outbound store) gets every report once, in sequence, as a first transmission (no
 * PossDupFlag) whose SendingTime is when it was written, not when it was built: a client checks
 * SendingTime against its own clock (QuickFIX/J rejects a message more than 2 minutes old), and a
 * slow link can take longer than that to drain a big backlog. TransactTime (60) is stamped when the
 * report is built, so a report written later than built has SendingTime after TransactTime.
 */
class GatewayBehindTest {
    private static final int COUNT = 40_000;

    @TempDir
    Path tmp;
    private Exchange exchange;

    @BeforeEach
    void start() throws Exception {
        // A long stall allowance: the client reads nothing while it sends, which must not get it cut here.
        exchange = new Exchange(tmp, "  - {senderCompId: BEHIND, account: 1}\nwriteStallSeconds: 600\n");
        exchange.startEngine();
        exchange.startGateway();
    }

    @AfterEach
    void stop() {
        exchange.close();
    }

    @Test
    void aClientThatFellBehindGetsEveryReportOnceWithTheSendingTimeOfItsWriting() throws Exception {
        try (RawFixClient client = new RawFixClient("BEHIND")) {
            client.connect(exchange.port, 4096);
            final int first = client.logOn(true).seq() + 1;
            for (int i = 1; i <= COUNT; i++) {
                client.sendRefusedOrder(i);
            }
            client.flush();
            // Every report built (stored) before the client reads any: on a loaded machine a gateway slower than the client
            // would otherwise write each one as it is built, all in the millisecond of its TransactTime.
            final java.nio.file.Path published = exchange.data.resolve("gateways/1/sessions");
            io.chronex.testing.Await.until("the gateway stored every report", 120, () -> {
                final io.chronex.queues.GatewaySessionsFile.Snapshot s = io.chronex.queues.GatewaySessionsFile.read(published);
                return s.problem() == null && s.sessions().stream().anyMatch(x -> x.senderCompId().equals("BEHIND")
                    && x.messagesOut() >= COUNT + 1);
            });
            int later = 0;
            for (int i = 0; i < COUNT; i++) {
                final RawFixClient.Msg m = client.next();
                assertEquals(first + i, m.seq(), m.toString());
                assertEquals("8", m.type(), m.toString());
                assertEquals("R" + (i + 1), m.get(11), m.toString());
                assertNull(m.get(43), "a first transmission, not a possible duplicate: " + m);
                final int order = m.get(52).compareTo(m.get(60));
                assertTrue(order >= 0, "SendingTime before TransactTime: " + m);
                if (order > 0) {
                    later++;
                }
            }
            // The backlog is far bigger than what the socket and the pending buffer hold, so many reports were
            // written from the store well after they were built (the old gateway sent the built bytes, SendingTime
            // equal to TransactTime in every one).
            assertTrue(later > 0, "no report carried a SendingTime later than its TransactTime");
        }
    }
}
