package io.chronex.gateway;

import io.chronex.gateway.session.SessionStateFile;
import io.chronex.queues.DataDirectory;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequence numbers after every combination of sequence reset, restart and kill -9 that changes
 * what a restarted gateway must work out: a real gateway (and engine, so orders get reports and the
 * outbound numbers move) killed or stopped, then a raw-socket client logs on without a reset. Each
 * case checks the exact numbers both ways: a Logon one below the expected MsgSeqNum gets Logout
 * "MsgSeqNum too low, expecting X but received X-1"; a Logon with X is answered with a Logon whose
 * MsgSeqNum is the next outbound number the test counted.
 */
class GatewaySequenceRecoveryTest {
    private static final String SENDER = "LOAD1";

    @TempDir
    Path tmp;
    private Exchange exchange;
    private int orders;

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

    /** 20 orders, a logout, then a reset logon and a logout: 3 both ways, whatever came before the reset. */
    @Test
    void resetThenCleanRestart() throws Exception {
        tradeThenLogOut(20);
        resetThenLogOut();
        assertEquals(0, exchange.stopGateway(), "SIGTERM exits 0");
        exchange.startGateway();
        assertNextNumbers(3, 3);
    }

    @Test
    void resetThenKill9() throws Exception {
        tradeThenLogOut(20);
        resetThenLogOut();
        exchange.killGateway();
        exchange.startGateway();
        assertNextNumbers(3, 3);
    }

    /**
     * No reset: 10 orders (MsgSeqNum 2..11), then kill -9 landing after the last order was journalled
     * but before its number reached the state file, made exact by putting the file back to 11.
     */
    @Test
    void kill9BetweenJournalAppendAndStateFileWrite() throws Exception {
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            rest(client, 10);
        }
        exchange.killGateway();
        rewindStateFile(11, false);
        exchange.startGateway();
        // Out: the Logon (1) and 10 reports (2..11).
        assertNextNumbers(12, 12);
    }

    /**
     * 20 orders, reset, 5 orders (2..6), kill -9 before the last one's number reached the state file,
     * with the scan checkpoint as far back as a kill within a second of the first orders leaves it:
     * the scan must take the 6 from after the reset and none of the 21 from before it.
     */
    @Test
    void resetNewMessagesThenKill9BeforeTheStateFileWrite() throws Exception {
        tradeThenLogOut(20);
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            rest(client, 5);
        }
        exchange.killGateway();
        rewindStateFile(6, true);
        exchange.startGateway();
        // Out since the reset: the Logon (1) and 5 reports (2..6).
        assertNextNumbers(7, 7);
    }

    /** Logs on with a reset (1), rests n orders (2..n+1, reports 2..n+1), logs out (n+2 both ways). */
    private void tradeThenLogOut(final int n) throws Exception {
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            rest(client, n);
            client.send("5", "");
            client.expect("5");
            assertTrue(client.closedByPeer(), "the gateway closes after the Logout exchange");
        }
    }

    /** Logon with ResetSeqNumFlag=Y (1 both ways), Logout (2 both ways): next is 3 both ways. */
    private void resetThenLogOut() throws Exception {
        try (FixText client = FixText.logOn(exchange.port, SENDER)) {
            client.send("5", "");
            assertEquals("2", client.expect("5").get(34), "the Logout answer after a reset");
            assertTrue(client.closedByPeer(), "the gateway closes after the Logout exchange");
        }
    }

    /** Orders at distinct prices, so none trades and each gets exactly one report (New). */
    private void rest(final FixText client, final int n) throws Exception {
        for (int i = 0; i < n; i++) {
            orders++;
            final String price = String.format(java.util.Locale.ROOT, "%d.%02d", 90 + orders % 9, orders % 100);
            client.send("D", "11=S" + orders + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=" + price
                + "\u000159=1\u000160=20261122-10:00:00\u0001");
            final FixText.Fields report = client.expect("8");
            assertEquals("0", report.get(150), "order S" + orders + " rests: " + report);
        }
    }

    /**
     * The state a kill -9 leaves when it lands between the journal append of the message with
     * MsgSeqNum {@code lastJournalled} and the state-file write after it: the file still expects
     * that number. With {@code scanFromTheStart}, the checkpoint (moved on once a second) is also put
     * back to the gateway's first command, the earliest value a kill can find it at.
     */
    private void rewindStateFile(final int lastJournalled, final boolean scanFromTheStart) {
        try (SessionStateFile state = new SessionStateFile(exchange.data.resolve("gateways/1/sessions.state"))) {
            final int slot = state.slot(SENDER);
            assertEquals(lastJournalled + 1, state.expectedInbound(slot), "the gateway recorded every message before the kill");
            state.expectedInbound(slot, lastJournalled);
            if (scanFromTheStart) {
                try (SingleChronicleQueue commands = DataDirectory.open(exchange.data).commands()) {
                    final ExcerptTailer tailer = commands.createTailer();
                    tailer.toStart();
                    state.scanFrom(tailer.index());
                }
            }
        }
    }

    /** A Logon one too low is refused saying what is expected; one with the expected number gets a Logon numbered nextOut. */
    private void assertNextNumbers(final int nextIn, final int nextOut) throws Exception {
        try (FixText low = FixText.sendLogon(exchange.port, SENDER, nextIn - 1, false, 30)) {
            assertEquals("MsgSeqNum too low, expecting " + nextIn + " but received " + (nextIn - 1), low.expect("5").get(58));
            assertTrue(low.closedByPeer(), "a refused Logon is disconnected");
        }
        try (FixText client = FixText.sendLogon(exchange.port, SENDER, nextIn, false, 30)) {
            final FixText.Fields logon = client.expect("A");
            assertEquals(Integer.toString(nextOut), logon.get(34), "MsgSeqNum of the Logon answer: " + logon);
            client.send("5", "");
            assertEquals(Integer.toString(nextOut + 1), client.expect("5").get(34), "the Logout answer follows the Logon");
        }
    }
}
