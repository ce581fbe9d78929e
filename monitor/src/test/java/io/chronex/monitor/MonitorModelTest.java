package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import io.chronex.queues.book.Books;
import net.openhft.chronicle.bytes.Bytes;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The monitor's model fed with events excerpts written by EventCodec and read back by it, as the
 * monitor's tailer reads them: books from level changes, rejects by reason, hop percentiles, backlog.
 */
class MonitorModelTest {
    private final MonitorModel model = new MonitorModel();
    private final Bytes<?> bytes = Bytes.allocateElasticOnHeap(4096);
    private final EventHeader readHeader = new EventHeader();
    private final Result readResult = new Result();
    private long eventsIndex;

    /** Writes an excerpt for the command at {@code commandIndex}, reads it back and feeds the model. */
    private void event(final long commandIndex, final Consumer<Result> fill, final Consumer<Hops> hops) {
        final EventHeader header = new EventHeader();
        header.commandIndex = commandIndex;
        hops.accept(header.hops);
        final Result result = new Result();
        result.reset(CommandType.NEW_ORDER);
        fill.accept(result);
        bytes.clear();
        EventCodec.write(bytes, header, result);
        assertEquals(DecodeStatus.OK, EventCodec.read(bytes, readHeader, readResult));
        model.onEvent(eventsIndex++, readHeader, readResult);
    }

    private void event(final long commandIndex, final Consumer<Result> fill) {
        event(commandIndex, fill, h -> { });
    }

    private static void level(final Result r, final int symbol, final Side side, final long price, final long quantity, final int orders) {
        final LevelChange change = r.levelChange(symbol, side, price);
        change.quantity = quantity;
        change.orderCount = orders;
    }

    private void command(final long journalIndex, final long appendNanos) {
        final Hops hops = new Hops();
        hops.gatewayId = 1;
        hops.gatewayAppendNanos = appendNanos;
        model.onCommand(journalIndex, DecodeStatus.OK, new Command(), hops);
    }

    /**
     * A restarted monitor reads what was in the queues before it started: that is history, in the totals and the since-start
     * latencies, but not in the interval's rates or the last minute, so the catch-up does not show as current traffic.
     */
    @Test
    void whatWasInTheQueuesAtStartIsHistoryNotTheIntervalsTraffic() {
        model.historyThrough(4, 4); // commands and events 0..4 were there
        for (long i = 0; i < 10; i++) {
            command(i, 1_000);
            final long index = i;
            event(i, r -> { }, h -> {
                h.gatewayAppendNanos = 1_000;
                h.engineReadNanos = 1_000 + 1_000 * (index + 1);
                h.engineDoneNanos = h.engineReadNanos + 10;
                h.engineAppendNanos = h.engineDoneNanos + 10;
            });
        }
        model.rollInterval();
        assertEquals(10, model.commands(), "every command in the totals");
        assertEquals(10, model.events());
        assertEquals(5, model.lastIntervalCommands(), "only the commands appended after the start are this interval's");
        assertEquals(5, model.lastIntervalEvents());
        assertEquals(5, model.lastIntervalCommandsFromGateway(1));
        assertEquals(10, model.commandsFromGateway(1));
        final HopLatencies latencies = model.latencies();
        assertEquals(5, latencies.interval(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(5, latencies.lastMinute(HopLatencies.Hop.JOURNAL).getTotalCount(), "the last minute has no history");
        assertEquals(10, latencies.sinceStart(HopLatencies.Hop.JOURNAL).getTotalCount(), "since start has it all");
        assertEquals(6_000, latencies.interval(HopLatencies.Hop.JOURNAL).getMinValue(), 10, "the interval's are the new ones");
    }

    @Test
    void booksAreRebuiltFromLevelChanges() {
        event(1, r -> {
            level(r, 7, Side.BUY, 100, 5, 1);
            level(r, 7, Side.BUY, 101, 3, 2);
            level(r, 7, Side.SELL, 105, 2, 1);
            level(r, 7, Side.SELL, 107, 9, 3);
            level(r, 8, Side.SELL, 50, 1, 1);
        });
        final Books.Book book = model.books().book(7);
        assertEquals(101L, book.levels(Side.BUY).price(0));
        assertEquals(3, book.levels(Side.BUY).quantity(0));
        assertEquals(2, book.levels(Side.BUY).orders(0));
        assertEquals(105L, book.levels(Side.SELL).price(0));
        assertEquals(2, book.levels(Side.BUY).size());

        // A trade takes all of 101 and part of 105: 101 is gone, 105 has less, the rest is untouched.
        event(2, r -> {
            level(r, 7, Side.BUY, 101, 0, 0);
            level(r, 7, Side.SELL, 105, 1, 1);
        });
        assertEquals(100L, book.levels(Side.BUY).price(0));
        assertEquals(1, book.levels(Side.SELL).quantity(0));
        assertEquals(1, book.levels(Side.SELL).orders(0));
        assertEquals(1, book.levels(Side.BUY).size());
        assertEquals(2, book.levels(Side.SELL).size());
        assertEquals(0, model.books().book(8).levels(Side.BUY).size());
        assertEquals(50L, model.books().book(8).levels(Side.SELL).price(0));
    }

    @Test
    void rejectsAreCountedByReasonAndTradesBySymbol() {
        event(1, r -> r.rejectReason = RejectReason.PRICE_NOT_ON_TICK);
        event(2, r -> r.rejectReason = RejectReason.PRICE_NOT_ON_TICK);
        event(3, r -> r.rejectReason = RejectReason.SYMBOL_HALTED);
        event(4, r -> {
            r.symbol = 3;
            final Fill a = r.addFill();
            a.price = 10;
            a.quantity = 4;
            a.takerSide = Side.BUY;
            final Fill b = r.addFill();
            b.price = 11;
            b.quantity = 6;
            b.takerSide = Side.BUY;
        });
        final Counters c = model.counters();
        assertEquals(2, c.rejects(RejectReason.PRICE_NOT_ON_TICK));
        assertEquals(1, c.rejects(RejectReason.SYMBOL_HALTED));
        assertEquals(0, c.rejects(RejectReason.UNKNOWN_ORDER));
        assertEquals(3, c.rejectsTotal());
        assertEquals(1, c.accepted());
        assertEquals(2, c.trading().get(3).trades);
        assertEquals(10, c.trading().get(3).volume);
        assertEquals(4, model.events());
    }

    @Test
    void hopPercentilesComeFromTheHopTimestamps() {
        // Journal hop i µs for i = 1..100, match hop 2 µs; no gateway read time, so no gateway hop.
        for (int i = 1; i <= 100; i++) {
            final long micros = i;
            event(i, r -> { }, h -> {
                h.gatewayAppendNanos = 1_000_000;
                h.engineReadNanos = 1_000_000 + micros * 1_000;
                h.engineDoneNanos = h.engineReadNanos + 2_000;
                h.engineAppendNanos = h.engineDoneNanos + 500;
            });
        }
        model.rollInterval();
        final Histogram journal = model.latencies().interval(HopLatencies.Hop.JOURNAL);
        assertEquals(100, journal.getTotalCount());
        assertEquals(50_000, journal.getValueAtPercentile(50), 50);
        assertEquals(99_000, journal.getValueAtPercentile(99), 100);
        assertEquals(100_000, journal.getMaxValue(), 100);
        assertEquals(2_000, model.latencies().interval(HopLatencies.Hop.MATCH).getValueAtPercentile(99.9), 5);
        assertEquals(0, model.latencies().interval(HopLatencies.Hop.GATEWAY).getTotalCount());
        assertEquals(102_500, model.latencies().interval(HopLatencies.Hop.TOTAL).getMaxValue(), 100);

        // The next interval holds only what came after; since start holds both.
        event(101, r -> { }, h -> {
            h.gatewayAppendNanos = 1;
            h.engineReadNanos = 7_001;
        });
        model.rollInterval();
        assertEquals(1, model.latencies().interval(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(7_000, model.latencies().interval(HopLatencies.Hop.JOURNAL).getMaxValue(), 10);
        assertEquals(101, model.latencies().sinceStart(HopLatencies.Hop.JOURNAL).getTotalCount());
    }

    @Test
    void backlogCountsCommandsNotYetAnsweredAndAgesTheOldest() {
        for (long index = 10; index < 15; index++) {
            command(index, index * 1_000);
        }
        assertEquals(5, model.backlog().count());
        event(10, r -> { });
        event(11, r -> { });
        assertEquals(3, model.backlog().count());
        assertEquals(11, model.backlog().lastAnswered());
        assertEquals(14, model.backlog().lastJournalIndex());
        // The oldest waiting is index 12, appended at 12,000 ns.
        assertEquals(20_000 - 12_000, model.backlog().oldestAgeNanos(20_000, 0));

        // An answer read before its command (the events tailer ran ahead): the command never waits.
        event(16, r -> { });
        command(15, 15_000);
        command(16, 16_000);
        assertEquals(0, model.backlog().count());
        assertEquals(0, model.backlog().oldestAgeNanos(99_000, 0));
        command(17, 0);
        assertEquals(1, model.backlog().count());
        assertEquals(-1, model.backlog().oldestAgeNanos(99_000, 0), "no timestamp at all: unknown");
        assertTrue(model.commands() == 8 && model.commandsFromGateway(1) == 8);
    }

    /** A command from gateway 0 (bin/admin, bin/inject) of this type. */
    private void operatorCommand(final long journalIndex, final CommandType type, final int symbol, final long account, final long price) {
        final Command c = new Command();
        c.type = type;
        c.symbol = symbol;
        c.account = account;
        c.price = price;
        model.onCommand(journalIndex, DecodeStatus.OK, c, new Hops());
    }

    @Test
    void operatorCommandsAreCountedByTypeAndTheLastOnesKeptWithTheEnginesAnswer() {
        assertEquals(0, model.operator().total());
        operatorCommand(1, CommandType.HALT, 1, 0, 0);
        // bin/inject journals orders with gateway id 0 too: they are not operator commands.
        operatorCommand(2, CommandType.NEW_ORDER, 1, 5, 100);
        operatorCommand(3, CommandType.KILL_SWITCH_ON, 0, 7, 0);
        operatorCommand(4, CommandType.SET_REFERENCE_PRICE, 2, 0, 2_500);
        event(1, r -> r.commandType = CommandType.HALT);
        event(2, r -> { });
        event(3, r -> {
            r.commandType = CommandType.KILL_SWITCH_ON;
            r.affectedOrders = 2;
        });
        event(4, r -> {
            r.commandType = CommandType.SET_REFERENCE_PRICE;
            r.rejectReason = RejectReason.UNKNOWN_SYMBOL;
        });
        // An answer read before its command (the monitor reads the events first in each round).
        event(5, r -> r.commandType = CommandType.RESUME);
        operatorCommand(5, CommandType.RESUME, 1, 0, 0);
        // A command whose answer has not come yet.
        operatorCommand(6, CommandType.SNAPSHOT, 0, 0, 0);

        final OperatorCommands op = model.operator();
        assertEquals(5, op.total());
        assertEquals(1, op.count(CommandType.HALT));
        assertEquals(0, op.count(CommandType.NEW_ORDER));
        assertEquals(List.of(CommandType.HALT, CommandType.RESUME, CommandType.KILL_SWITCH_ON, CommandType.SET_REFERENCE_PRICE,
            CommandType.SNAPSHOT), List.copyOf(op.counts().keySet()));
        final List<OperatorCommands.Entry> last = op.last();
        assertEquals(List.of(1L, 3L, 4L, 5L, 6L), last.stream().map(OperatorCommands.Entry::journalIndex).toList());
        assertEquals("accepted", last.get(0).answer());
        assertEquals(7, last.get(1).account());
        assertEquals("accepted, 2 orders cancelled", last.get(1).answer());
        assertEquals(2_500, last.get(2).price());
        assertEquals("rejected: UNKNOWN_SYMBOL", last.get(2).answer());
        assertEquals("accepted", last.get(3).answer());
        assertNull(last.get(4).answer());

        // Only the last 10 are kept; the counts are of all of them.
        for (long i = 7; i < 20; i++) {
            operatorCommand(i, CommandType.END_OF_DAY, 0, 0, 0);
        }
        assertEquals(OperatorCommands.KEPT, op.last().size());
        assertEquals(10L, op.last().get(0).journalIndex());
        assertEquals(13, op.count(CommandType.END_OF_DAY));
        assertEquals(18, op.total());
    }

    @Test
    void tradesAddUpNotionalExactlyAndKeepTheLastFivePerSymbol() {
        for (int i = 1; i <= 7; i++) {
            final long price = 10_000 + i;
            final long quantity = i;
            event(100 + i, r -> {
                r.symbol = 1;
                final Fill f = r.addFill();
                f.price = price;
                f.quantity = quantity;
                f.takerSide = Side.BUY;
            });
        }
        final Counters.SymbolTrading acme = model.counters().trading().get(1);
        assertEquals(7, acme.trades);
        assertEquals(28, acme.volume);
        long expected = 0;
        for (int i = 1; i <= 7; i++) {
            expected += (10_000L + i) * i;
        }
        assertEquals(BigInteger.valueOf(expected), acme.notional());
        // Newest first, with the events index that carried each (the test's events indices are 0, 1, 2...).
        assertEquals(List.of(new Counters.Trade(10_007, 7, 6), new Counters.Trade(10_006, 6, 5), new Counters.Trade(10_005, 5, 4),
            new Counters.Trade(10_004, 4, 3), new Counters.Trade(10_003, 3, 2)), acme.lastTrades());
        assertEquals(new Counters.Trade(10_007, 7, 6), acme.lastTrade());

        // Far past a long: the largest price times the largest quantity, three times, then a negative price (a spread).
        for (int i = 0; i < 3; i++) {
            event(200 + i, r -> {
                r.symbol = 2;
                final Fill f = r.addFill();
                f.price = Command.MAX_PRICE;
                f.quantity = Command.MAX_QUANTITY;
                f.takerSide = Side.SELL;
            });
        }
        event(300, r -> {
            r.symbol = 2;
            final Fill f = r.addFill();
            f.price = -5;
            f.quantity = 3;
            f.takerSide = Side.BUY;
        });
        assertEquals(BigInteger.valueOf(Command.MAX_PRICE).multiply(BigInteger.valueOf(Command.MAX_QUANTITY))
            .multiply(BigInteger.valueOf(3)).subtract(BigInteger.valueOf(15)), model.counters().trading().get(2).notional());
    }

    @Test
    void theLastMinuteIsTheSumOfTheLastWindowOfIntervals() {
        assertEquals(60, HopLatencies.windowIntervals(1_000_000_000L));
        assertEquals(240, HopLatencies.windowIntervals(250_000_000L));
        assertEquals(9, HopLatencies.windowIntervals(7_000_000_000L), "ceil(60 / 7)");
        assertEquals(1, HopLatencies.windowIntervals(3_600_000_000_000L));
        assertEquals(HopLatencies.MAX_WINDOW_INTERVALS, HopLatencies.windowIntervals(10_000_000L));

        final MonitorModel windowed = new MonitorModel(3);
        final Histogram lastMinute = windowed.latencies().lastMinute(HopLatencies.Hop.JOURNAL);
        // Interval i: ten journal hops of i ms.
        for (int i = 1; i <= 5; i++) {
            for (int k = 0; k < 10; k++) {
                final long micros = i * 1_000L;
                final EventHeader header = new EventHeader();
                header.hops.gatewayAppendNanos = 1_000;
                header.hops.engineReadNanos = 1_000 + micros * 1_000;
                windowed.onEvent(k, header, new Result());
            }
            windowed.rollInterval();
            assertEquals(Math.min(i, 3), windowed.latencies().windowFilled());
            assertEquals(Math.min(i, 3) * 10L, lastMinute.getTotalCount(), "after interval " + i);
        }
        assertSame(lastMinute, windowed.latencies().lastMinute(HopLatencies.Hop.JOURNAL), "kept, not reallocated");
        // Intervals 3, 4, 5 (within the 2 significant digits the window keeps).
        assertEquals(3_000_000, lastMinute.getMinValue(), 30_000);
        assertEquals(4_000_000, lastMinute.getValueAtPercentile(50), 40_000);
        assertEquals(5_000_000, lastMinute.getValueAtPercentile(99), 50_000);
        assertEquals(5_000_000, lastMinute.getMaxValue(), 50_000);
        assertEquals(50, windowed.latencies().sinceStart(HopLatencies.Hop.JOURNAL).getTotalCount());

        // Quiet intervals push the old ones out: empty after three.
        for (int i = 0; i < 3; i++) {
            windowed.rollInterval();
        }
        assertEquals(0, lastMinute.getTotalCount());
        assertEquals(0, lastMinute.getMaxValue());
    }

    @Test
    void anIntervalEndedInStepsSumsAsOneRollAndKeepsLaterResultsForTheNext() {
        final MonitorModel stepped = new MonitorModel(3);
        final HopLatencies latencies = stepped.latencies();
        journalHops(stepped, 10, 2_000);
        stepped.endInterval();
        // Read between two steps: belongs to the next interval, not the one being summed.
        journalHops(stepped, 4, 7_000);
        int steps = 0;
        while (latencies.accumulateNext()) {
            steps++;
            journalHops(stepped, 1, 9_000);
        }
        assertEquals(HopLatencies.Hop.values().length, steps, "one step a hop");
        assertEquals(10, latencies.interval(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(10, latencies.sinceStart(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(10, latencies.lastMinute(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(1, latencies.windowFilled());

        // Ended again without its sums done: the sums of the interval before are finished first, none lost.
        stepped.endInterval();
        assertTrue(latencies.accumulateNext());
        stepped.endInterval();
        while (latencies.accumulateNext()) {
            // the last interval's sums
        }
        assertEquals(0, latencies.interval(HopLatencies.Hop.JOURNAL).getTotalCount(), "nothing recorded since the second end");
        assertEquals(10 + 4 + steps, latencies.sinceStart(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(10 + 4 + steps, latencies.lastMinute(HopLatencies.Hop.JOURNAL).getTotalCount());
        assertEquals(9_000_000, latencies.sinceStart(HopLatencies.Hop.JOURNAL).getMaxValue(), 9_000);
        assertEquals(3, latencies.windowFilled());
    }

    /** {@code n} results each with a journal hop of {@code micros}. */
    private static void journalHops(final MonitorModel model, final int n, final long micros) {
        for (int k = 0; k < n; k++) {
            final EventHeader header = new EventHeader();
            header.hops.gatewayAppendNanos = 1_000;
            header.hops.engineReadNanos = 1_000 + micros * 1_000;
            model.onEvent(k, header, new Result());
        }
    }

    @Test
    void aGatewaysReturnRecordIsJoinedToItsEventForTheReturnHops() {
        final EventHeader header = new EventHeader();
        header.hops.gatewayReadNanos = 1_000;
        header.hops.gatewayAppendNanos = 3_000;
        header.hops.engineReadNanos = 6_000;
        header.hops.engineDoneNanos = 7_000;
        header.hops.engineAppendNanos = 8_000;
        final Result result = new Result();
        result.reset(CommandType.NEW_ORDER);
        model.onEvent(42, header, result);
        model.onReturn(42, 13_000, 17_000);
        // A record of an event this model never read (or no longer remembers) joins nothing.
        model.onReturn(43, 20_000, 30_000);
        model.onReturn(42 + (1 << 16), 20_000, 30_000);
        model.onReturn(42, 14_000, 18_000); // a second answer to the same result: the first one counts
        model.rollInterval();
        final HopLatencies l = model.latencies();
        assertEquals(5_000, l.interval(HopLatencies.Hop.RETURN).getValueAtPercentile(50), 5);
        assertEquals(4_000, l.interval(HopLatencies.Hop.WRITE).getValueAtPercentile(50), 5);
        assertEquals(16_000, l.interval(HopLatencies.Hop.WIRE).getValueAtPercentile(50), 20);
        assertEquals(1, l.interval(HopLatencies.Hop.WIRE).getTotalCount());
        assertEquals(3, model.returnsUnjoined());
    }
}
