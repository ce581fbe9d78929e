package io.chronex.engine.workload;

import io.chronex.engine.BookText;
import io.chronex.engine.MatchingEngine;
import io.chronex.engine.api.Cancel;
import io.chronex.engine.api.CancelReason;
import io.chronex.engine.api.Command;
import io.chronex.engine.api.EngineConfig;
import io.chronex.engine.api.Fill;
import io.chronex.engine.api.Result;
import io.chronex.engine.api.Side;
import io.chronex.engine.api.SymbolSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * exchange-core parity: ec-1M replayed through the engine (risk checks off) gives exchange-core's
 * trade and reduce events line for line, its totals per phase, and exactly its final book.
 */
class ExchangeCoreParityTest {
    static final int SYMBOL = 40000;

    private static Path workload;
    private static Map<String, String> reference;
    private static ExchangeCoreCsv commands;

    @BeforeAll
    static void load() throws IOException {
        workload = Workloads.workload("ec-1M");
        reference = Workloads.reference(workload);
        commands = ExchangeCoreCsv.load(workload.resolve("commands.csv.gz"), SYMBOL);
    }

    /** One events.csv line per trade and per CANCEL/REDUCE quantity removal, as exchange-core writes them. */
    static void appendEvents(final int seq, final String cmd, final Result r, final StringBuilder out) {
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill fill = r.fill(i);
            out.append(seq).append(',').append(cmd).append(",SUCCESS,TRADE,")
                .append(fill.takerClientOrderId).append(',').append(fill.takerAccount).append(',').append(side(fill.takerSide)).append(',')
                .append(fill.makerClientOrderId).append(',').append(fill.makerAccount).append(',')
                .append(fill.price).append(',').append(fill.quantity).append(',')
                .append(fill.takerLeavesQuantity == 0 ? 1 : 0).append(',').append(fill.makerLeavesQuantity == 0 ? 1 : 0).append('\n');
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel cancel = r.cancel(i);
            if (cancel.reason == CancelReason.CLIENT_CANCEL || cancel.reason == CancelReason.REDUCE) {
                out.append(seq).append(',').append(cmd).append(",SUCCESS,REDUCE,")
                    .append(cancel.clientOrderId).append(',').append(cancel.account).append(',').append(side(cancel.side)).append(",,,")
                    .append(cancel.price).append(',').append(cancel.quantity).append(',')
                    .append(cancel.leavesQuantity == 0 ? 1 : 0).append(",0\n");
            }
        }
    }

    private static String side(final Side side) {
        return side == Side.BUY ? "BID" : "ASK";
    }

    @Test
    void commandsFileIsTheOneTheReferenceDescribes() throws Exception {
        assertEquals(Integer.parseInt(reference.get("commands.total")), commands.size());
        assertEquals(reference.get("commands.sha256"), sha256OfDataLines(workload.resolve("commands.csv.gz")));
    }

    @Test
    void replayGivesExchangeCoresEventsTotalsAndFinalBook() throws Exception {
        final MatchingEngine engine = new MatchingEngine(EngineConfig.noRiskChecks(SymbolSpec.plain(SYMBOL)));
        final Command command = new Command();
        final Result result = new Result();
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        final StringBuilder lines = new StringBuilder(256);
        final long[] fill = new long[3];
        final long[] bench = new long[3];
        long reduceEvents = 0;
        long reducedVolume = 0;
        long unfilledRemainders = 0;

        try (BufferedReader expected = gzipReader(workload.resolve("events.csv.gz"))) {
            expected.readLine();
            for (int seq = 0; seq < commands.size(); seq++) {
                engine.apply(commands.commandAt(seq, command), result);
                if (result.isRejected()) {
                    fail("seq " + seq + " " + command + " rejected: " + result.rejectReason + " (exchange-core accepted every command)");
                }
                final long[] totals = commands.isFillPhase(seq) ? fill : bench;
                for (int i = 0; i < result.fillCount(); i++) {
                    totals[0]++;
                    totals[1] += result.fill(i).quantity;
                    totals[2] += result.fill(i).quantity * result.fill(i).price;
                }
                for (int i = 0; i < result.cancelCount(); i++) {
                    final CancelReason reason = result.cancel(i).reason;
                    if (reason == CancelReason.CLIENT_CANCEL || reason == CancelReason.REDUCE) {
                        reduceEvents++;
                        reducedVolume += result.cancel(i).quantity;
                    } else if (reason == CancelReason.UNFILLED_REMAINDER) {
                        unfilledRemainders++;
                    }
                }
                lines.setLength(0);
                appendEvents(seq, commands.commandName(seq), result, lines);
                if (lines.isEmpty()) {
                    continue;
                }
                digest.update(lines.toString().getBytes(StandardCharsets.US_ASCII));
                for (final String ours : lines.toString().split("\n")) {
                    final String theirs = expected.readLine();
                    if (!ours.equals(theirs)) {
                        fail("first difference at seq " + seq + " (" + command + ")\n  exchange-core: " + theirs + "\n  ours:          " + ours);
                    }
                }
            }
            final String extra = expected.readLine();
            if (extra != null) {
                fail("exchange-core has events we did not produce, starting with: " + extra);
            }
        }
        assertEquals(reference.get("events.sha256"), HexFormat.of().formatHex(digest.digest()));

        assertEquals(Long.parseLong(reference.get("fill.trades")), fill[0], "pre-fill trades");
        assertEquals(Long.parseLong(reference.get("fill.tradeVolume")), fill[1], "pre-fill volume");
        assertEquals(Long.parseLong(reference.get("fill.tradeNotional")), fill[2], "pre-fill notional");
        assertEquals(Long.parseLong(reference.get("benchmark.trades")), bench[0], "benchmark trades");
        assertEquals(Long.parseLong(reference.get("benchmark.tradeVolume")), bench[1], "benchmark volume");
        assertEquals(Long.parseLong(reference.get("benchmark.tradeNotional")), bench[2], "benchmark notional");
        assertEquals(Long.parseLong(reference.get("benchmark.reduceEvents")), reduceEvents, "reduce events");
        assertEquals(Long.parseLong(reference.get("benchmark.reducedVolume")), reducedVolume, "reduced volume");
        assertEquals(Long.parseLong(reference.get("benchmark.rejectEvents")), unfilledRemainders,
            "exchange-core reports unfilled IOC/FOK remainders as rejects");

        assertEquals(Long.parseLong(reference.get("final.bestBid")), engine.bestBid(SYMBOL));
        assertEquals(Long.parseLong(reference.get("final.bestAsk")), engine.bestAsk(SYMBOL));
        assertEquals(reference.get("final.L2.bids"), BookText.depth(engine, SYMBOL, Side.BUY));
        assertEquals(reference.get("final.L2.asks"), BookText.depth(engine, SYMBOL, Side.SELL));
        assertEquals(Long.parseLong(reference.get("final.bidLevels")), engine.levelCount(SYMBOL, Side.BUY));
        assertEquals(Long.parseLong(reference.get("final.askLevels")), engine.levelCount(SYMBOL, Side.SELL));
        assertEquals(Long.parseLong(reference.get("final.bidOrders")), orders(engine, Side.BUY));
        assertEquals(Long.parseLong(reference.get("final.askOrders")), orders(engine, Side.SELL));
    }

    private static long orders(final MatchingEngine engine, final Side side) {
        long count = 0;
        for (int d = 0; d < engine.levelCount(SYMBOL, side); d++) {
            count += engine.levelOrderCount(SYMBOL, side, d);
        }
        return count;
    }

    private static BufferedReader gzipReader(final Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file), 1 << 16), StandardCharsets.US_ASCII), 1 << 16);
    }

    private static String sha256OfDataLines(final Path file) throws IOException, NoSuchAlgorithmException {
        final MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (BufferedReader reader = gzipReader(file)) {
            reader.readLine();
            String line;
            while ((line = reader.readLine()) != null) {
                digest.update((line + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
