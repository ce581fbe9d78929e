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
import net.openhft.chronicle.bytes.Bytes;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        assertEquals(101L, book.best(Side.BUY).getKey());
        assertEquals(new Books.Level(3, 2), book.best(Side.BUY).getValue());
        assertEquals(105L, book.best(Side.SELL).getKey());
        assertEquals(2, book.levels(Side.BUY).size());

        // A trade takes all of 101 and part of 105: 101 is gone, 105 has less, the rest is untouched.
        event(2, r -> {
            level(r, 7, Side.BUY, 101, 0, 0);
            level(r, 7, Side.SELL, 105, 1, 1);
        });
        assertEquals(100L, book.best(Side.BUY).getKey());
        assertEquals(new Books.Level(1, 1), book.best(Side.SELL).getValue());
        assertEquals(1, book.levels(Side.BUY).size());
        assertEquals(2, book.levels(Side.SELL).size());
        assertNull(model.books().book(8).best(Side.BUY));
        assertEquals(50L, model.books().book(8).best(Side.SELL).getKey());
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
}
