package io.chronex.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.Hops;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's JSON and the Prometheus text from one known model: the figures the status block shows,
 * in both, and the exposition format's rules (name and labels syntax, each metric's samples in one
 * group after its TYPE line, label values escaped).
 */
class MonitorFacesTest {
    /** A symbol name with the characters both formats must escape. */
    private static final String ODD_NAME = "A\"B\\C";
    private final MonitorModel model = new MonitorModel();
    private final History history = new History();

    private StatusBlock.View view(final long backlogAgeNanos) {
        return new StatusBlock.View(Path.of("/data/x"), Instant.ofEpochMilli(1_795_000_000_000L), 1.0, backlogAgeNanos, 1_000_000_000L,
            new ProcessStatus(ProcessStatus.State.GONE, 4242),
            List.of(new StatusBlock.GatewayView(1, new ProcessStatus(ProcessStatus.State.ALIVE, 77),
                new FailedEventsFile.Snapshot(2, 9, 0, "no session"))),
            Map.of(1, new SymbolSpec(1, ODD_NAME, 100, 1, 1, 0, 0)), 0);
    }

    /** Two commands from gateway 1, one accepted with a trade of 3 at 100.00 and a bid left, one rejected; a third waiting. */
    private void feed() {
        final Hops hops = new Hops();
        hops.gatewayId = 1;
        for (long index = 1; index <= 3; index++) {
            hops.gatewayReadNanos = 1_000 * index;
            hops.gatewayAppendNanos = 1_000 * index + 2_000;
            model.onCommand(index, DecodeStatus.OK, new Command(), hops);
        }
        final EventHeader header = new EventHeader();
        header.commandIndex = 1;
        header.hops.gatewayReadNanos = 1_000;
        header.hops.gatewayAppendNanos = 3_000;
        header.hops.engineReadNanos = 13_000;
        header.hops.engineDoneNanos = 14_000;
        header.hops.engineAppendNanos = 15_000;
        final Result accepted = new Result();
        accepted.reset(CommandType.NEW_ORDER);
        accepted.symbol = 1;
        final Fill fill = accepted.addFill();
        fill.price = 10_000;
        fill.quantity = 3;
        final LevelChange bid = accepted.levelChange(1, Side.BUY, 9_990);
        bid.quantity = 7;
        bid.orderCount = 2;
        model.onEvent(0, header, accepted);
        header.commandIndex = 2;
        final Result rejected = new Result();
        rejected.reset(CommandType.NEW_ORDER);
        rejected.rejectReason = RejectReason.UNKNOWN_ORDER;
        model.onEvent(1, header, rejected);
        model.rollInterval();
        history.add(1_795_000_000.0, 1.0, model, 5_000_000);
    }

    @Test
    void theStateDocumentCarriesWhatTheBlockShows() throws Exception {
        feed();
        final JsonNode s = new ObjectMapper().readTree(StateJson.render(model, view(5_000_000), history));
        assertEquals(1_795_000_000_000L, s.get("time").asLong());
        assertEquals("GONE", s.at("/engine/state").asText());
        assertTrue(s.get("alerts").toString().contains("ENGINE GONE (pid 4242)"), s.get("alerts").toString());
        assertEquals(1, s.at("/gateways/0/id").asInt());
        assertEquals(3, s.at("/gateways/0/commands").asLong());
        assertEquals(2, s.at("/gateways/0/failedEvents").asLong());
        assertEquals(3, s.at("/flow/commands").asLong());
        assertEquals(2, s.at("/flow/events").asLong());
        assertEquals(3.0, s.at("/flow/commandsPerSecond").asDouble());
        assertEquals(1, s.at("/backlog/commands").asLong());
        assertEquals(5.0, s.at("/backlog/ageMs").asDouble());
        assertEquals(1, s.at("/results/accepted").asLong());
        assertEquals(1, s.at("/results/rejects/UNKNOWN_ORDER").asLong());
        assertEquals(ODD_NAME, s.at("/trades/0/symbol").asText());
        assertEquals(3, s.at("/trades/0/volume").asLong());
        assertEquals("99.90", s.at("/books/0/bids/0/price").asText());
        assertEquals(7, s.at("/books/0/bids/0/quantity").asLong());
        assertEquals(0, s.at("/books/0/askLevels").asInt());
        // Hops of the one result: journal 10 µs, total 14 µs (HdrHistogram's 3 digits keep these exact).
        assertEquals(10.0, s.at("/latency/interval/journal/p50").asDouble(), 0.01);
        assertEquals(14.0, s.at("/latency/sinceStart/total/max").asDouble(), 0.02);
        assertEquals(StateJson.PERCENTILES.length, s.at("/latency/distribution/percentile").size());
        assertEquals(10.0, s.at("/latency/distribution/journal/0").asDouble(), 0.01);
        assertEquals(10.0, s.at("/latency/lastMinute/journal/p50").asDouble(), 0.1);
        assertEquals(2, s.at("/latency/lastMinute/total/n").asLong(), "both results carried the hops");
        assertEquals("no sessions file", s.at("/gateways/0/sessions/problem").asText());
        assertEquals(0, s.at("/operator/total").asLong());
        assertEquals("300.00", s.at("/trades/0/notional").asText(), "3 lots at 100.00");
        assertEquals("100.00", s.at("/trades/0/lastTrades/0/price").asText());
        assertEquals(3, s.at("/trades/0/lastTrades/0/quantity").asLong());
        assertEquals(1, s.at("/history/time").size());
        assertEquals(14.0, s.at("/history/p99/total/0").asDouble(), 0.02);
        assertEquals(5.0, s.at("/history/backlogAgeMs/0").asDouble());
    }

    @Test
    void noTimestampAndNoDataAreNullsNotZeros() throws Exception {
        model.rollInterval();
        history.add(1.0, 1.0, model, -1);
        final JsonNode s = new ObjectMapper().readTree(StateJson.render(model, view(-1), history));
        assertTrue(s.at("/backlog/ageMs").isNull());
        assertTrue(s.at("/history/backlogAgeMs/0").isNull());
        assertTrue(s.at("/history/p50/journal/0").isNull());
        assertTrue(s.at("/latency/distribution/total/0").isNull());
    }

    /** A label: name="value", the value's backslash, double quote and line feed escaped. */
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"";
    static final Pattern SAMPLE = Pattern.compile(
        "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{" + LABEL + "(?:," + LABEL + ")*\\})? (NaN|[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)");

    @Test
    void metricsFollowThePrometheusTextFormat() {
        feed();
        final String text = MetricsText.render(model, view(5_000_000));
        final Set<String> typed = new HashSet<>();
        final List<String> order = new ArrayList<>();
        for (final String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                final String name = line.split(" ")[2];
                assertTrue(typed.add(name), "TYPE twice: " + name);
                order.add(name);
            } else if (!line.startsWith("# HELP ")) {
                final Matcher m = SAMPLE.matcher(line);
                assertTrue(m.matches(), "not a sample line: " + line);
                // Each sample belongs to the metric whose TYPE came last (a summary's _sum and _count too): never interleaved.
                assertEquals(order.get(order.size() - 1), m.group(1).replaceFirst("^(chronex_hop_latency_seconds)_(sum|count)$", "$1"),
                    line);
            }
        }
        assertEquals(List.of(), PromLint.problems(text), "what promtool check metrics would say of\n" + text);
        assertTrue(text.contains("chronex_up{role=\"engine\"} 0\n"), text);
        assertTrue(text.contains("chronex_up{role=\"gateway\",gateway=\"1\"} 1\n"), text);
        assertTrue(text.contains("chronex_commands_total 3\n"), text);
        assertTrue(text.contains("chronex_backlog_commands 1\n"), text);
        assertTrue(text.contains("chronex_backlog_age_seconds 0.00500000000\n"), text);
        assertTrue(text.contains("chronex_rejected_total{reason=\"UNKNOWN_ORDER\"} 1\n"), text);
        assertTrue(text.contains("chronex_trades_total{symbol=\"A\\\"B\\\\C\"} 1\n"), text);
        assertTrue(text.contains("chronex_traded_notional_total{symbol=\"A\\\"B\\\\C\"} 300.00\n"), text);
        assertTrue(text.contains("chronex_hop_latency_results{hop=\"total\",window=\"minute\"} 2\n"), text);
        assertTrue(text.contains("chronex_book_best_price{symbol=\"A\\\"B\\\\C\",side=\"bid\"} 99.90\n"), text);
        assertTrue(text.contains("chronex_hop_latency_seconds{hop=\"journal\",window=\"interval\",quantile=\"0.5\"} 1.00"), text);
        assertFalse(text.contains("chronex_book_best_price{symbol=\"A\\\"B\\\\C\",side=\"ask\"}"),
            "an empty side has no best price: " + text);
    }
}
