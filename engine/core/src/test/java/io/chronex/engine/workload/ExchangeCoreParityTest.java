package io.chronex.engine.workload;

import io.chronex.testing.Workloads;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.engine.BookText;
import io.chronex.engine.MatchingEngine;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Fill;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
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
import java.util.function.IntPredicate;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * exchange-core parity: ec-1M replayed through the engine (risk checks off) gives exchange-core's
 * trade and reduce events line for line, its totals per phase, and exactly its final book.
 */
class ExchangeCoreParityTest {
    static final int SYMBOL = 40000;
    /** Levels of each side shown from the top, and ticks either side of the event's price, in a failure message. */
    private static final int BOOK_LEVELS = 10;
    private static final int NEAR_TICKS = 5;

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
        // Per phase: trades, volume, notional, reduce events, reduced volume, unfilled remainders.
        final long[] fill = new long[6];
        final long[] bench = new long[6];

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
                        totals[3]++;
                        totals[4] += result.cancel(i).quantity;
                    } else if (reason == CancelReason.UNFILLED_REMAINDER) {
                        totals[5]++;
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
                        fail(firstDifference(seq, theirs, ours, expected));
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
        assertEquals(Long.parseLong(reference.get("fill.reduceEvents")), fill[3], "pre-fill reduce events");
        assertEquals(Long.parseLong(reference.get("fill.reducedVolume")), fill[4], "pre-fill reduced volume");
        assertEquals(Long.parseLong(reference.get("benchmark.reduceEvents")), bench[3], "benchmark reduce events");
        assertEquals(Long.parseLong(reference.get("benchmark.reducedVolume")), bench[4], "benchmark reduced volume");
        // exchange-core reports an unfilled IOC/FOK remainder as a REJECT event.
        assertEquals(Long.parseLong(reference.get("fill.rejectEvents")), fill[5], "pre-fill unfilled remainders");
        assertEquals(Long.parseLong(reference.get("benchmark.rejectEvents")), bench[5], "benchmark unfilled remainders");

        assertEquals(Long.parseLong(reference.get("final.bestBid")), engine.bestBid(SYMBOL));
        assertEquals(Long.parseLong(reference.get("final.bestAsk")), engine.bestAsk(SYMBOL));
        assertSameDepth("final.L2.bids", BookText.depth(engine, SYMBOL, Side.BUY));
        assertSameDepth("final.L2.asks", BookText.depth(engine, SYMBOL, Side.SELL));
        assertEquals(Long.parseLong(reference.get("final.bidLevels")), engine.levelCount(SYMBOL, Side.BUY));
        assertEquals(Long.parseLong(reference.get("final.askLevels")), engine.levelCount(SYMBOL, Side.SELL));
        assertEquals(Long.parseLong(reference.get("final.bidOrders")), orders(engine, Side.BUY));
        assertEquals(Long.parseLong(reference.get("final.askOrders")), orders(engine, Side.SELL));
    }

    /**
     * The failure message for the first event that differs: the command as the file has it, both
     * events, the rest of exchange-core's events for that command, our whole result, and the top of
     * the book just before the command (rebuilt by replaying the stream up to it, which is
     * deterministic, so the passing path keeps no history).
     */
    private static String firstDifference(final int ourSeq, final String theirs, final String ours,
        final BufferedReader expected) throws IOException {
        // When we gave no events for a command that had some, the mismatch only surfaces at our next
        // command with events: the earlier of the two seqs is where things went wrong.
        final int theirSeq = theirs == null ? ourSeq : Integer.parseInt(theirs.substring(0, theirs.indexOf(',')));
        final int seq = Math.min(ourSeq, theirSeq);
        final StringBuilder sb = new StringBuilder(4096);
        sb.append("first difference at seq ").append(seq).append(": ").append(commands.describe(seq)).append('\n');
        if (theirSeq != ourSeq) {
            final int other = Math.max(ourSeq, theirSeq);
            sb.append("  (exchange-core's event is for seq ").append(theirSeq).append(", ours for seq ").append(ourSeq)
                .append("; seq ").append(other).append(" is ").append(commands.describe(other)).append(")\n");
        }
        sb.append("  exchange-core: ").append(theirs).append('\n');
        sb.append("  ours:          ").append(ours).append('\n');
        sb.append("  exchange-core's next events:\n");
        for (int i = 0; i < 5; i++) {
            final String next = expected.readLine();
            if (next == null) {
                break;
            }
            sb.append("    ").append(next).append('\n');
        }
        final MatchingEngine engine = new MatchingEngine(EngineConfig.noRiskChecks(SymbolSpec.plain(SYMBOL)));
        final Command command = new Command();
        final Result result = new Result();
        for (int row = 0; row < seq; row++) {
            engine.apply(commands.commandAt(row, command), result);
        }
        // MOVE, CANCEL and REDUCE mostly hit orders far from the top: show the book at the event's price too.
        final String[] fields = (theirs != null && theirSeq <= ourSeq ? theirs : ours).split(",", -1);
        final long price = fields.length > 9 && !fields[9].isEmpty() ? Long.parseLong(fields[9]) : 0;
        book(sb, "before it", engine, price);
        engine.apply(commands.commandAt(seq, command), result);
        sb.append("  our result: ").append(result.toString().replace("\n", "\n  ")).append('\n');
        book(sb, "after it", engine, price);
        return sb.toString();
    }

    private static void book(final StringBuilder sb, final String when, final MatchingEngine engine, final long price) {
        sb.append("  book ").append(when).append(" (price:quantity:orders; top ").append(BOOK_LEVELS).append(" levels, and within ")
            .append(NEAR_TICKS).append(" ticks of ").append(price).append("):\n");
        for (final Side side : new Side[]{Side.SELL, Side.BUY}) {
            sb.append(side == Side.SELL ? "    asks top  " : "    bids top  ");
            levels(sb, engine, side, d -> d < BOOK_LEVELS);
            sb.append(side == Side.SELL ? "\n    asks near " : "\n    bids near ");
            levels(sb, engine, side, d -> Math.abs(engine.levelPrice(SYMBOL, side, d) - price) <= NEAR_TICKS);
            sb.append('\n');
        }
    }

    private static void levels(final StringBuilder sb, final MatchingEngine engine, final Side side, final IntPredicate depths) {
        for (int d = 0; d < engine.levelCount(SYMBOL, side); d++) {
            if (depths.test(d)) {
                sb.append(engine.levelPrice(SYMBOL, side, d)).append(':').append(engine.levelQuantity(SYMBOL, side, d))
                    .append(':').append(engine.levelOrderCount(SYMBOL, side, d)).append(" @").append(d).append(' ');
            }
        }
    }

    /** Names the first level that differs instead of leaving the reader to diff two 5 KB lines. */
    private static void assertSameDepth(final String key, final String ours) {
        final String theirs = reference.get(key);
        if (theirs.equals(ours)) {
            return;
        }
        final String[] a = theirs.split(" ");
        final String[] b = ours.split(" ");
        int d = 0;
        while (d < a.length && d < b.length && a[d].equals(b[d])) {
            d++;
        }
        fail(key + " differs first at depth " + d + ": exchange-core " + (d < a.length ? a[d] : "(no level)")
            + ", ours " + (d < b.length ? b[d] : "(no level)") + " (" + a.length + " vs " + b.length + " levels)\n  exchange-core: "
            + theirs + "\n  ours:          " + ours);
    }

    private static long orders(final MatchingEngine engine, final Side side) {
        long count = 0;
        for (int d = 0; d < engine.levelCount(SYMBOL, side); d++) {
            count += engine.levelOrderCount(SYMBOL, side, d);
        }
        return count;
    }

    private static BufferedReader gzipReader(final Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file), 1 << 16),
            StandardCharsets.US_ASCII), 1 << 16);
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
