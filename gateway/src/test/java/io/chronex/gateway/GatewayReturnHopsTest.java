package io.chronex.gateway;

import io.chronex.api.CommandType;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.ReturnHops;
import io.chronex.replay.LatencyReport;
import io.chronex.replay.latency.WireToWire;
import io.chronex.replay.latency.WireToWire.Hop;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gateway records the return path of every answer it writes to its sender's socket
 * (gateways/N/returns), so that each order's wire-to-wire time is known: real engine and gateway
 * processes, two FIX clients whose orders trade; every order has all seven hops, each one not negative,
 * adding up exactly to the wire-to-wire time, and one return record per result, however many answers
 * its sender got.
 */
class GatewayReturnHopsTest {
    private static final int ORDERS = 200;

    @TempDir
    Path tmp;

    private static String order(final String clOrdId, final String side) {
        return "11=" + clOrdId + "\u000155=ACME\u000154=" + side + "\u000138=1\u000140=2\u000144=90.01\u000159=1"
            + "\u000160=20261124-10:00:00\u0001";
    }

    @Test
    void everyAnswerWrittenLiveHasItsReturnHopsAndTheyAddUpToTheWireTime() throws Exception {
        final String sessions = "  - {senderCompId: LOAD1, account: 101}\n  - {senderCompId: LOAD2, account: 102}\n";
        try (Exchange exchange = new Exchange(tmp, sessions)) {
            exchange.startEngine();
            exchange.startGateway();
            try (FixText buyer = FixText.logOn(exchange.port, "LOAD1"); FixText seller = FixText.logOn(exchange.port, "LOAD2")) {
                for (int i = 0; i < ORDERS / 2; i++) {
                    buyer.send("D", order("B-" + i, "1"));
                    assertEquals("0", buyer.expect("8").get(150));
                    // A sell that trades with it: its sender gets New, then Trade (two answers, one result).
                    seller.send("D", order("S-" + i, "2"));
                    assertEquals("0", seller.expect("8").get(150));
                    assertEquals("F", seller.expect("8").get(150));
                    assertEquals("F", buyer.expect("8").get(150));
                }
            }
            // Stopped cleanly, so the last pass's records are in the queue before it is read.
            assertEquals(0, exchange.stopGateway());
            final List<long[]> answered = new ArrayList<>();
            final WireToWire.Counts counts = WireToWire.read(DataDirectory.openReadOnly(exchange.data), (index, type, receipt, append,
                nanos) -> {
                if (type == CommandType.NEW_ORDER) {
                    answered.add(nanos.clone());
                }
            });
            assertEquals(ORDERS, answered.size());
            assertEquals(ORDERS, counts.withReturn(), "every order's answer went out live: each has its return hops");
            // One record per result, the first answer's, however many answers its sender got.
            final List<Long> recorded = new ArrayList<>();
            try (SingleChronicleQueue returns = DataDirectory.openReadOnly(exchange.data).gatewayReturns(1)) {
                final ReturnHops.Cursor cursor = new ReturnHops.Cursor(returns.createTailer());
                while (cursor.advance()) {
                    recorded.add(cursor.eventsIndex);
                }
            }
            assertEquals(ORDERS, recorded.size(), recorded.toString());
            assertEquals(ORDERS, recorded.stream().distinct().count());
            for (final long[] nanos : answered) {
                long sum = 0;
                for (final Hop hop : Hop.PARTS) {
                    assertTrue(nanos[hop.ordinal()] >= 0, hop + " not recorded");
                    sum += nanos[hop.ordinal()];
                }
                assertEquals(nanos[Hop.WIRE.ordinal()], sum, "the six hops add up to the wire-to-wire time");
            }
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
                assertEquals(0, LatencyReport.exitCode(new String[] {"--data-dir", exchange.data.toString()}, out));
            }
            final String report = bytes.toString(StandardCharsets.UTF_8);
            // Every result, the funding's deposits included (operator commands: no wire, no return path); the orders' on the wire.
            assertTrue(report.contains("RESULT results=" + (Exchange.FUNDING_COMMANDS + ORDERS) + " wire_results=" + ORDERS
                + " end_to_end=wire "), report);
        }
    }
}
