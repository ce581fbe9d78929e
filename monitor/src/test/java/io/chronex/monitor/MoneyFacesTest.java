package io.chronex.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronex.api.AssetSpec;
import io.chronex.queues.LedgerStatusFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * The engine's money totals (DATA/ledger) in the monitor's three faces: per asset in its decimals in the block and the JSON,
 * in its units with an asset label in /metrics; a file that cannot be believed is said, not shown as figures; a ledger that
 * does not add up is an alert; no file, no money anywhere.
 */
class MoneyFacesTest {
    private static final long NOW = 1_795_000_000_000L;
    @TempDir
    Path data;
    private final MonitorModel model = new MonitorModel();

    private StatusBlock.View view(final MoneyView money) {
        return new StatusBlock.View(data, Instant.ofEpochMilli(NOW), 1.0, 0, 1_000_000_000L,
            new ProcessStatus(ProcessStatus.State.ALIVE, 1), List.of(), Map.of(), 0, 0, null, null, List.of(), null, null, money);
    }

    private void ledger(final long usdHeld) {
        try (LedgerStatusFile.Writer writer = new LedgerStatusFile.Writer(LedgerStatusFile.of(data),
            List.of(new AssetSpec(1, "USD", 2), new AssetSpec(2, "ACME", 0)))) {
            writer.begin();
            writer.asset(0, 1_000_000_00, 250_00, -1_50, 12_34, usdHeld);
            writer.asset(1, 5_000, 0, 0, 0, 700);
            writer.end(12_345, 0x1_0000_0039L, NOW - 400);
        }
    }

    @Test
    void theBlockTheJsonAndTheMetricsShowEachAssetsTotals() throws Exception {
        ledger(40_000_00);
        final StatusBlock.View view = view(MoneyView.read(data, NOW));

        final String block = StatusBlock.render(model, view);
        assertTrue(block.contains("\nmoney    the engine's ledger after journal index 0x100000039 (12,345 commands), written 0.4 s ago\n"),
            block);
        assertTrue(block.contains(String.format("\n         %-8s %22s %22s %22s %22s %22s %22s\n", "USD", "1000000.00", "250.00", "-1.50",
            "40000.00", "12.34", "959736.16")), block);
        assertTrue(block.contains(String.format("\n         %-8s %22s %22s %22s %22s %22s %22s\n", "ACME", "5000", "0", "0", "700", "0",
            "4300")), block);
        assertTrue(block.contains("alerts   none\n"), block);

        final JsonNode money = new ObjectMapper().readTree(StateJson.render(model, view, new History())).path("money");
        assertTrue(money.path("readable").asBoolean());
        assertEquals("0x100000039", money.path("lastJournalIndex").asText());
        assertEquals(12_345, money.path("commands").asLong());
        assertEquals(400, money.path("ageMillis").asLong());
        final JsonNode usd = money.path("assets").path(0);
        assertEquals("USD", usd.path("code").asText());
        assertEquals(2, usd.path("decimals").asInt());
        assertEquals(List.of("1000000.00", "250.00", "-1.50", "40000.00", "12.34", "959736.16"), List.of(usd.path("deposited").asText(),
            usd.path("withdrawn").asText(), usd.path("adjusted").asText(), usd.path("held").asText(), usd.path("fees").asText(),
            usd.path("available").asText()));
        assertEquals("4300", money.path("assets").path(1).path("available").asText());

        final String metrics = MetricsText.render(model, view);
        assertEquals(List.of(), PromLint.problems(metrics), "what promtool check metrics would say of\n" + metrics);
        for (final String sample : List.of("chronex_money_deposited_total{asset=\"USD\"} 1000000.00",
            "chronex_money_withdrawn_total{asset=\"USD\"} 250.00",
            "chronex_money_adjusted{asset=\"USD\"} -1.50", "chronex_money_held{asset=\"USD\"} 40000.00",
            "chronex_money_fees_total{asset=\"USD\"} 12.34", "chronex_money_available{asset=\"USD\"} 959736.16",
            "chronex_money_held{asset=\"ACME\"} 700", "chronex_money_age_seconds 0.400000000")) {
            assertTrue(metrics.contains("\n" + sample + "\n"), sample + " in\n" + metrics);
        }
        assertTrue(metrics.contains("# TYPE chronex_money_deposited_total counter\n"), metrics);
    }

    @Test
    void aLedgerThatDoesNotAddUpIsAnAlert() {
        ledger(2_000_000_00); // held past what came in: available below zero
        final String block = StatusBlock.render(model, view(MoneyView.read(data, NOW)));
        assertTrue(block.contains("alerts   LEDGER DOES NOT ADD UP for USD: held 2000000.00 and fees 12.34 against 999748.50 net deposits"),
            block);
    }

    @Test
    void anUnreadableFileIsSaidAndNoFileShowsNoMoney() throws Exception {
        Files.write(LedgerStatusFile.of(data), new byte[64]);
        final StatusBlock.View unreadable = view(MoneyView.read(data, NOW));
        final String block = StatusBlock.render(model, unreadable);
        assertTrue(block.contains("\nmoney    ? (ledger file zeroed)\n"), block);
        final JsonNode money = new ObjectMapper().readTree(StateJson.render(model, unreadable, new History())).path("money");
        assertFalse(money.path("readable").asBoolean());
        assertTrue(money.path("assets").isMissingNode());
        assertFalse(MetricsText.render(model, unreadable).contains("chronex_money_"));

        Files.delete(LedgerStatusFile.of(data));
        assertNull(MoneyView.read(data, NOW));
        final StatusBlock.View none = view(null);
        assertFalse(StatusBlock.render(model, none).contains("money"));
        assertTrue(new ObjectMapper().readTree(StateJson.render(model, none, new History())).path("money").isMissingNode());
        assertFalse(MetricsText.render(model, none).contains("chronex_money_"));
    }
}
