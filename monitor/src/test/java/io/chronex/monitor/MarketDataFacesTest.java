package io.chronex.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.MarketDataStatusFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Market data in the monitor's three faces, from a synthetic publisher status file (DATA/marketdata/status) and a gateway's
 * sessions with market-data counts: the publisher's liveness from its pid and heartbeat, its rate between two heartbeats,
 * its counters and lag; each gateway's subscriptions.
 */
class MarketDataFacesTest {
    private static final long NOW = 1_795_000_000_000L;
    private static final long OWN_PID = ProcessHandle.current().pid();
    @TempDir
    Path data;
    private final MonitorModel model = new MonitorModel();

    /** Writes the publisher's status file as PublisherAgent does (native order, the layout's offsets). */
    private void status(final long pid, final long heartbeat, final long incrementals) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(MarketDataStatusFile.LENGTH).order(ByteOrder.nativeOrder());
        b.putLong(MarketDataStatusFile.MAGIC_AT, MarketDataStatusFile.MAGIC).putLong(MarketDataStatusFile.VERSION_AT, 1);
        b.putLong(MarketDataStatusFile.PID_AT, pid).putLong(MarketDataStatusFile.HEARTBEAT_EPOCH_MILLIS_AT, heartbeat);
        b.putLong(MarketDataStatusFile.MESSAGES_AT, incrementals).putLong(MarketDataStatusFile.LAST_EVENTS_INDEX_AT, 0x2a);
        b.putLong(MarketDataStatusFile.SEQ_AT, incrementals).putLong(MarketDataStatusFile.BACK_PRESSURE_AT, 4);
        b.putLong(MarketDataStatusFile.DROPPED_AT, 1).putLong(MarketDataStatusFile.LAG_EVENTS_AT, 3);
        b.putLong(MarketDataStatusFile.LAG_MICROS_AT, 85).putLong(MarketDataStatusFile.SNAPSHOTS_AT, 12);
        b.putLong(MarketDataStatusFile.NOT_CONNECTED_AT, 5).putLong(MarketDataStatusFile.STARTED_EPOCH_MILLIS_AT, NOW - 60_000);
        b.putLong(MarketDataStatusFile.LAST_SENT_INDEX_AT, 0x29).putLong(MarketDataStatusFile.EPOCH_AT, 7);
        Files.createDirectories(data.resolve("marketdata"));
        Files.write(data.resolve("marketdata/status"), b.array());
    }

    private StatusBlock.View view(final PublisherView publisher, final List<StatusBlock.GatewayView> gateways) {
        return new StatusBlock.View(data, Instant.ofEpochMilli(NOW), 1.0, 0, 1_000_000_000L,
            new ProcessStatus(ProcessStatus.State.ALIVE, 1), gateways, Map.of(1, new SymbolSpec(1, "ACME", 100, 1, 1, 0, 0)), 0, 0, null,
            null, List.of(), null, publisher);
    }

    /** A pid no process has: the largest the kernel hands out is far below it. */
    private static long deadPid() {
        return 1L << 40;
    }

    @Test
    void thePublishersRateIsCountedBetweenItsHeartbeatsAndItsLivenessFromPidAndHeartbeat() throws IOException {
        final PublisherView.Reader reader = new PublisherView.Reader(data);
        assertNull(reader.read(NOW), "no status file: no publisher line at all");

        status(OWN_PID, NOW - 400, 1_000);
        PublisherView p = reader.read(NOW);
        assertEquals(PublisherView.State.ALIVE, p.state());
        assertTrue(Double.isNaN(p.incrementalsPerSecond()), "one heartbeat: no rate yet");
        assertEquals("alive (pid " + OWN_PID + ", heartbeat 0.4 s ago)", p.describe());
        // The same heartbeat read again (the monitor reads faster than the publisher writes): still no rate, not 0.
        assertTrue(Double.isNaN(reader.read(NOW + 100).incrementalsPerSecond()));
        status(OWN_PID, NOW + 1_600, 4_000);
        p = reader.read(NOW + 2_000);
        assertEquals(1_500.0, p.incrementalsPerSecond(), 1e-9, "3,000 incrementals over the 2 s between heartbeats");
        assertEquals("1500.0 incrementals/s", p.rate());
        // A heartbeat not moving, read again: the last rate stands.
        assertEquals(1_500.0, reader.read(NOW + 2_500).incrementalsPerSecond(), 1e-9);

        // Heartbeat too old while the process is there: STUCK, an alert.
        p = reader.read(NOW + 1_600 + PublisherView.STUCK_AFTER_MILLIS + 1);
        assertEquals(PublisherView.State.STUCK, p.state());
        assertTrue(StatusBlock.alerts(model, view(p, List.of())).get(0).startsWith("MARKET-DATA PUBLISHER STUCK (pid " + OWN_PID),
            p.describe());

        // A dead process with its pid file left: GONE (killed), an alert; without a pid file: stopped cleanly, no alert.
        status(deadPid(), NOW - 10_000, 4_000);
        p = reader.read(NOW);
        assertEquals(PublisherView.State.NOT_RUNNING, p.state());
        assertTrue(StatusBlock.alerts(model, view(p, List.of())).isEmpty());
        Files.writeString(data.resolve("marketdata/marketdata.pid"), deadPid() + "\n");
        p = reader.read(NOW);
        assertEquals(PublisherView.State.GONE, p.state());
        assertTrue(Double.isNaN(p.incrementalsPerSecond()), "another run: no rate");
        assertEquals(List.of("MARKET-DATA PUBLISHER GONE (pid " + deadPid()
                + " in its pid file is not running; last heartbeat 10.0 s ago)"),
            StatusBlock.alerts(model, view(p, List.of())));

        Files.write(data.resolve("marketdata/status"), new byte[16]);
        p = reader.read(NOW);
        assertEquals(PublisherView.State.UNREADABLE, p.state());
        assertEquals("? (status file of 16 bytes, shorter than its 128)", p.describe());
    }

    @Test
    void theBlockTheJsonAndTheMetricsShowThePublisherAndEachGatewaysSubscriptions() throws IOException {
        final PublisherView.Reader reader = new PublisherView.Reader(data);
        status(OWN_PID, NOW - 1_000, 1_000);
        reader.read(NOW - 1_000);
        status(OWN_PID, NOW, 3_000);
        final PublisherView publisher = reader.read(NOW);
        final GatewaySessionsFile.Session alice = new GatewaySessionsFile.Session("ALICE", "CHRONEX", true, 11, 9, 11, 9, 1_000, 0,
            new GatewaySessionsFile.MarketData(2, true, 3, 5, 120));
        final GatewaySessionsFile.Session bob = new GatewaySessionsFile.Session("BOB", "CHRONEX", true, 1, 1, 1, 1, 1_000, 0);
        final GatewaySessionsFile.Snapshot sessions = new GatewaySessionsFile.Snapshot(1, 1, 500, 42, List.of(alice, bob), null);
        final StatusBlock.View view = view(publisher, List.of(new StatusBlock.GatewayView(1,
            new ProcessStatus(ProcessStatus.State.ALIVE, 42), null, sessions, null)));

        final String block = StatusBlock.render(model, view);
        assertTrue(block.contains("sessions 2/2 logged on, market data 2 subscriptions (2 stale), 3 slow-subscriber episodes\n"),
            block);
        assertTrue(block.contains("; logged on 1970-01-01T00:00:01Z; market data 2 subscriptions, STALE, 3 slow-subscriber episodes, "
            + "W 5, X 120\n"), block);
        assertTrue(block.contains("  session BOB->CHRONEX in 1, out 1; last MsgSeqNum in 1, out 1; logged on 1970-01-01T00:00:01Z\n"),
            "a session that never asked for market data: nothing about it\n" + block);
        assertTrue(block.contains("\nmdfeed   alive (pid " + OWN_PID + ", heartbeat 0.0 s ago), 2000.0 incrementals/s, 3000 incrementals "
            + "(seq 3000), 12 snapshots\n         lag 3 events, 85 us; last events index read 0x2a, last published 0x29; "
            + "back-pressure 4, given up 1, no subscriber 5\n"), block);
        assertTrue(block.contains("alerts   none\n"), block);

        final JsonNode json = new ObjectMapper().readTree(StateJson.render(model, view, new History()));
        final JsonNode md = json.path("marketData");
        assertEquals("ALIVE", md.path("state").asText());
        assertEquals(2_000.0, md.path("incrementalsPerSecond").asDouble(), 1e-9);
        assertEquals(3_000, md.path("incrementals").asLong());
        assertEquals(3, md.path("lagEvents").asLong());
        assertEquals(85, md.path("lagMicros").asLong());
        assertEquals("0x29", md.path("lastEventsIndexPublished").asText());
        assertEquals("0x2a", md.path("lastEventsIndexRead").asText());
        assertEquals(4, md.path("backPressured").asLong());
        assertEquals(1, md.path("givenUp").asLong());
        assertEquals(12, md.path("snapshots").asLong());
        final JsonNode gateway = json.path("gateways").path(0);
        assertEquals("market data 2 subscriptions (2 stale), 3 slow-subscriber episodes", gateway.path("marketData").asText());
        final JsonNode aliceMd = gateway.path("sessions").path("list").path(0).path("marketData");
        assertEquals(2, aliceMd.path("subscriptions").asLong());
        assertTrue(aliceMd.path("stale").asBoolean());
        assertEquals(3, aliceMd.path("staleEpisodes").asLong());
        assertEquals(5, aliceMd.path("snapshots").asLong());
        assertEquals(120, aliceMd.path("incrementals").asLong());
        assertEquals(0, gateway.path("sessions").path("list").path(1).path("marketData").path("subscriptions").asLong());

        final String metrics = MetricsText.render(model, view);
        assertEquals(List.of(), PromLint.problems(metrics), "what promtool check metrics would say of\n" + metrics);
        for (final String sample : List.of("chronex_marketdata_up 1", "chronex_marketdata_incrementals_per_second 2000",
            "chronex_marketdata_incrementals_total 3000", "chronex_marketdata_snapshots_total 12", "chronex_marketdata_lag_events 3",
            "chronex_marketdata_lag_seconds 8.50000000e-05", "chronex_marketdata_back_pressure_total 4",
            "chronex_marketdata_given_up_total 1",
            "chronex_marketdata_heartbeat_age_seconds 0",
            "chronex_gateway_md_subscriptions{gateway=\"1\",session=\"ALICE\"} 2",
            "chronex_gateway_md_stale{gateway=\"1\",session=\"ALICE\"} 1",
            "chronex_gateway_md_stale_episodes_total{gateway=\"1\",session=\"ALICE\"} 3",
            "chronex_gateway_md_snapshots_total{gateway=\"1\",session=\"ALICE\"} 5",
            "chronex_gateway_md_incrementals_total{gateway=\"1\",session=\"ALICE\"} 120",
            "chronex_gateway_md_subscriptions{gateway=\"1\",session=\"BOB\"} 0")) {
            assertTrue(metrics.contains("\n" + sample + "\n"), sample + " in\n" + metrics);
        }

        // No status file: no publisher anywhere.
        final StatusBlock.View without = view(null, List.of());
        assertFalse(StatusBlock.render(model, without).contains("mdfeed"));
        assertTrue(new ObjectMapper().readTree(StateJson.render(model, without, new History())).path("marketData").isMissingNode());
        assertFalse(MetricsText.render(model, without).contains("chronex_marketdata_"));
    }
}
