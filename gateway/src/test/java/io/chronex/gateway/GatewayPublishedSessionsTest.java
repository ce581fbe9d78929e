package io.chronex.gateway;

import io.chronex.queues.GatewaySessionsFile;
import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gateways/N/sessions with a real engine, a real gateway and the project's raw FIX client: the file
 * shows the session logged on with exactly the messages that went each way and their last MsgSeqNums,
 * then logged off after the Logout exchange; a gateway killed with -9 leaves it as it was, and a
 * restarted gateway starts it again (logged off, counts 0, the sequence numbers it resumes from).
 */
class GatewayPublishedSessionsTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: BOB, account: 2}
        """;

    @TempDir
    Path tmp;

    @Test
    void theFileShowsEachSessionsStateAndExactCounts() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient alice = new RawFixClient("ALICE")) {
            exchange.startEngine();
            exchange.startGateway();
            final Path file = exchange.data.resolve("gateways/1/sessions");

            GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(file);
            assertNull(s.problem());
            assertEquals(1, s.gatewayId());
            assertEquals(List.of("ALICE", "BOB"), s.sessions().stream().map(GatewaySessionsFile.Session::senderCompId).toList());
            assertEquals("CHRONEX", s.sessions().get(0).targetCompId());
            assertEquals(0, s.loggedOn());

            final long beforeLogon = System.currentTimeMillis();
            alice.connect(exchange.port, 0);
            final List<String> received = new ArrayList<>();
            received.add(alice.logOn(true).type());
            // Three resting buys (each answered New) and one the gateway refuses itself (unknown symbol: Rejected, not journalled).
            for (int i = 1; i <= 3; i++) {
                alice.send("D", "11=P" + i + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=95.00\u000159=1\u0001"
                    + "60=20261123-10:00:00\u0001");
            }
            alice.sendRefusedOrder(4);
            alice.flush();
            for (int i = 0; i < 4; i++) {
                final RawFixClient.Msg report = alice.next();
                assertEquals("8", report.type(), report.toString());
                received.add(report.type());
            }
            // Counted in before the message is handled and out before it is written: already there when the client has it.
            s = GatewaySessionsFile.read(file);
            GatewaySessionsFile.Session a = s.sessions().get(0);
            assertEquals(1, s.loggedOn());
            assertTrue(a.loggedOn());
            assertEquals(5, a.messagesIn(), a.toString());
            assertEquals(5, a.messagesOut(), a.toString());
            assertEquals(5, a.lastInboundSeqNum());
            assertEquals(5, a.lastOutboundSeqNum());
            assertTrue(a.lastLogonEpochMillis() >= beforeLogon && a.lastLogonEpochMillis() <= System.currentTimeMillis(), a.toString());
            assertEquals(0, a.lastLogoutEpochMillis());
            assertEquals(new GatewaySessionsFile.Session("BOB", "CHRONEX", false, 0, 0, 0, 0, 0, 0), s.sessions().get(1));

            alice.send("5", "");
            alice.flush();
            received.add(alice.expect("5").type());
            assertEquals(List.of("A", "8", "8", "8", "8", "5"), received, "nothing else (no heartbeat) was sent");
            assertTrue(alice.closedByPeer());
            Await.until("ALICE logged off in the sessions file", 30,
                () -> !GatewaySessionsFile.read(file).sessions().get(0).loggedOn());
            a = GatewaySessionsFile.read(file).sessions().get(0);
            assertEquals(6, a.messagesIn(), a.toString());
            assertEquals(6, a.messagesOut(), a.toString());
            assertEquals(6, a.lastInboundSeqNum());
            assertEquals(6, a.lastOutboundSeqNum());
            assertTrue(a.lastLogoutEpochMillis() >= a.lastLogonEpochMillis(), a.toString());

            // Logged on again, then the gateway is killed: the file says what it said.
            alice.connect(exchange.port, 0);
            alice.logOn(false);
            Await.until("ALICE logged on again", 30, () -> GatewaySessionsFile.read(file).loggedOn() == 1);
            final long pid = GatewaySessionsFile.read(file).writerPid();
            exchange.killGateway();
            alice.disconnect();
            s = GatewaySessionsFile.read(file);
            assertEquals(1, s.loggedOn(), "a killed gateway leaves its last state");
            assertEquals(7, s.sessions().get(0).messagesIn());

            // A restart writes it again: logged off, counts 0, the sequence numbers it goes on from.
            exchange.startGateway();
            s = GatewaySessionsFile.read(file);
            assertFalse(s.writerPid() == pid);
            assertEquals(0, s.loggedOn());
            a = s.sessions().get(0);
            assertEquals(0, a.messagesIn());
            assertEquals(0, a.messagesOut());
            assertEquals(7, a.lastInboundSeqNum(), a.toString());
            assertEquals(7, a.lastOutboundSeqNum(), a.toString());
            assertEquals(0, a.lastLogonEpochMillis());
        }
    }
}
