package io.chronex.gateway;

import io.chronex.testing.Await;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.FailedEventsFile;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One event with tens of thousands of messages, end to end (raw sockets, real engine and gateway):
 * a mass cancel of 70,000 resting orders reports every one Canceled while another session is
 * served, and the gateway restarts cleanly after it; a kill -9 between the stored parts of such an
 * answer loses and duplicates nothing once the gateway is back; an event the gateway cannot read
 * is logged, counted and published in gateways/1/failed-events, and everything else goes on.
 */
class GatewayMassCancelTest {
    private static final String SESSIONS = """
          - {senderCompId: MASS, account: 101}
          - {senderCompId: OTHER, account: 102}
        """;

    @TempDir
    Path tmp;

    @Test
    void aMassCancelOfSeventyThousandOrdersReportsEveryOneAndTheGatewayGoesOn() throws Exception {
        final int count = 70_000;
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient mass = new RawFixClient("MASS")) {
            exchange.startEngine();
            exchange.startGateway();
            mass.connect(exchange.port, 0);
            mass.logOn(true);
            rest(mass, count);
            mass.send("q", "11=ALL\u0001530=7\u000160=20261123-10:00:00\u0001");
            mass.flush();
            final BitSet cancelled = new BitSet();
            int expectedSeq = count + 2;
            boolean report = false;
            while (cancelled.cardinality() < count || !report) {
                final RawFixClient.Msg m = mass.next();
                assertEquals(expectedSeq++, m.seq(), m.toString());
                if ("r".equals(m.type())) {
                    assertEquals(Integer.toString(count), m.get(533), m.toString());
                    report = true;
                } else {
                    assertEquals("4", m.get(150), m.toString());
                    final int n = Integer.parseInt(m.get(11).substring(1));
                    assertFalse(cancelled.get(n), "reported twice: " + m);
                    cancelled.set(n);
                }
            }
            otherIsServed(exchange.port);
            assertEquals(0, exchange.stopGateway(), "a clean stop after it:\n" + GatewayFlowTest.tail(exchange.gatewayLog()));
            exchange.startGateway();
            otherIsServed(exchange.port);
            assertFalse(exchange.gatewayLog().contains("Exception"), GatewayFlowTest.tail(exchange.gatewayLog()));
        }
    }

    /**
     * The gateway halts (as a kill -9 would) right after storing the second part of a 5,000-order
     * mass cancel's answer, before sending any of it. Restarted, it builds that event again, skips
     * what was stored, stores the rest; the client's resend then holds every Canceled exactly once.
     */
    @Test
    void aKillBetweenThePartsOfOneEventsAnswerLosesAndDuplicatesNothing() throws Exception {
        final int count = 5000;
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient mass = new RawFixClient("MASS")) {
            exchange.startEngine();
            exchange.startGateway(List.of("-Dchronex.gateway.haltAfterParts=2"));
            mass.connect(exchange.port, 0);
            mass.logOn(true);
            rest(mass, count);
            mass.send("q", "11=ALL\u0001530=7\u000160=20261123-10:00:00\u0001");
            mass.flush();
            assertTrue(mass.closedByPeer(), "the gateway halted");
            mass.disconnect();
            assertEquals(137, exchange.stopGateway(), "halted by the fault injection");
            exchange.startGateway();
            assertTrue(exchange.gatewayLog().contains("was answered in part"), GatewayFlowTest.tail(exchange.gatewayLog()));
            mass.connect(exchange.port, 0);
            final int last = mass.logOn(false).seq();
            mass.send("2", "7=" + (count + 2) + "\u000116=0\u0001");
            mass.flush();
            final BitSet cancelled = new BitSet();
            int reports = 0;
            for (int seq = count + 2; seq < last; seq++) {
                final RawFixClient.Msg m = mass.next();
                assertEquals(seq, m.seq(), m.toString());
                if ("r".equals(m.type())) {
                    reports++;
                } else {
                    assertEquals("4", m.get(150), m.toString());
                    final int n = Integer.parseInt(m.get(11).substring(1));
                    assertFalse(cancelled.get(n), "stored twice: " + m);
                    cancelled.set(n);
                }
            }
            assertEquals(1, reports, "one OrderMassCancelReport");
            assertEquals(count, cancelled.cardinality(), "every order reported Canceled once");
            assertEquals("4", mass.next().type(), "then the gap fill over the Logon");
        }
    }

    @Test
    void anEventThatCannotBeReadIsLoggedCountedAndPublishedAndTheGatewayGoesOn() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS)) {
            exchange.startEngine();
            exchange.startGateway();
            otherIsServed(exchange.port);
            final long index;
            try (SingleChronicleQueue events = DataDirectory.open(exchange.data).events()) {
                final ExcerptAppender appender = events.createAppender();
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().bytes().write(new byte[]{9, 9, 9, 9});
                }
                index = appender.lastIndexAppended();
            }
            exchange.foreignEventAt(index);
            final Path file = exchange.data.resolve("gateways/1/failed-events");
            Await.until("a failed event published in " + file, 60, () -> {
                final FailedEventsFile.Snapshot published = FailedEventsFile.read(file);
                return published != null && published.count() > 0;
            });
            final FailedEventsFile.Snapshot failed = FailedEventsFile.read(file);
            assertEquals(1, failed.count());
            assertEquals(index, failed.lastEventsIndex());
            assertTrue(failed.reason().contains("cannot be read"), failed.reason());
            otherIsServed(exchange.port);
            assertEquals(0, exchange.stopGateway());
            final String log = exchange.gatewayLog();
            assertTrue(log.contains("events excerpt " + Long.toHexString(index) + " could not be answered"), GatewayFlowTest.tail(log));
            assertTrue(log.contains("1 events failed (last " + Long.toHexString(index) + ")"), GatewayFlowTest.tail(log));
        }
    }

    /** Rests count GTC buy orders M1..Mcount below the market, a thousand at a time, each answered New. */
    private static void rest(final RawFixClient client, final int count) throws IOException {
        for (int done = 0; done < count; ) {
            final int batch = Math.min(1000, count - done);
            for (int i = 1; i <= batch; i++) {
                client.send("D", "11=M" + (done + i) + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=95.00\u000159=1\u0001"
                    + "60=20261123-10:00:00\u0001");
            }
            client.flush();
            for (int i = 0; i < batch; i++) {
                final RawFixClient.Msg m = client.expect("8");
                assertEquals("0", m.get(150), m.toString());
            }
            done += batch;
        }
    }

    /** OTHER logs on (with a reset: a new client each time) and its order is answered. */
    private static void otherIsServed(final int port) throws IOException {
        try (RawFixClient other = new RawFixClient("OTHER")) {
            other.connect(port, 0);
            other.logOn(true);
            other.send("D", "11=X1\u000155=ACME\u000154=2\u000138=1\u000140=2\u000144=105.00\u000159=0\u000160=20261123-10:00:00\u0001");
            other.flush();
            final RawFixClient.Msg m = other.expect("8");
            assertNotNull(m.get(150), m.toString());
        }
    }
}
