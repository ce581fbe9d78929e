package io.chronex.marketdata;

import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.marketdata.sbe.Content;
import io.chronex.marketdata.sbe.HeartbeatDecoder;
import io.chronex.marketdata.sbe.IncrementalDecoder;
import io.chronex.marketdata.sbe.MessageHeaderDecoder;
import io.chronex.marketdata.sbe.SnapshotDecoder;
import io.chronex.marketdata.sbe.TradingStatus;
import io.chronex.queues.book.Books;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedCodecTest {
    private final FeedEncoder encoder = new FeedEncoder();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();

    @Test
    void anIncrementalCarriesTheExcerptsLevelsTradesAndIndex() {
        final Result result = new Result();
        result.begin(CommandType.NEW_ORDER);
        result.symbol = 7;
        final Fill fill = result.addFill();
        fill.tradeId = 99;
        fill.price = 10_050;
        fill.quantity = 30;
        fill.takerSide = Side.BUY;
        level(result.addLevelChange(), 7, Side.SELL, 10_050, 0, 0);
        level(result.addLevelChange(), 7, Side.BUY, 10_040, 120, 3);
        assertTrue(FeedEncoder.carriesMarketData(result));

        final int length = encoder.epoch(77).incremental(42, 0x1234_0000_0005L, 111, 222, result, 1 << 20);
        assertFalse(encoder.leftOut());
        final IncrementalDecoder decoder = new IncrementalDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(length, MessageHeaderDecoder.ENCODED_LENGTH + decoder.sbeDecodedLength());
        assertEquals(42, decoder.seq());
        assertEquals(0x1234_0000_0005L, decoder.eventsIndex());
        assertEquals(111, decoder.engineAppendNanos());
        assertEquals(222, decoder.publishNanos());
        assertEquals(77, decoder.epoch());
        final IncrementalDecoder.LevelsDecoder levels = decoder.levels();
        assertEquals(2, levels.count());
        levels.next();
        assertEquals("7 ASK 10050 0 0", levels.symbol() + " " + levels.side() + " " + levels.price() + " " + levels.quantity() + " "
            + levels.orders());
        levels.next();
        assertEquals("7 BID 10040 120 3", levels.symbol() + " " + levels.side() + " " + levels.price() + " " + levels.quantity() + " "
            + levels.orders());
        final IncrementalDecoder.TradesDecoder trades = decoder.trades();
        assertEquals(1, trades.count());
        trades.next();
        assertEquals("99 7 10050 30 BID", trades.tradeId() + " " + trades.symbol() + " " + trades.price() + " " + trades.quantity()
            + " " + trades.aggressorSide());
        assertEquals(0, decoder.statuses().count());
        assertEquals(Content.WHOLE, decoder.content());

        // One byte short of what it needs: sent under the same sequence without its groups, flagged.
        final int tooBig = encoder.incremental(42, 0x1234_0000_0005L, 111, 222, result, length - 1);
        assertTrue(encoder.leftOut());
        final IncrementalDecoder cut = new IncrementalDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(Content.LEFT_OUT, cut.content());
        assertEquals(42, cut.seq());
        assertEquals(0, cut.levels().count());
        assertEquals(0, cut.trades().count());
        assertEquals(0, cut.statuses().count());
        assertTrue(tooBig < length);
    }

    @Test
    void onlyAnAcceptedHaltOrResumeIsAStatusChange() {
        final Result result = new Result();
        result.begin(CommandType.HALT);
        result.symbol = 3;
        assertTrue(FeedEncoder.carriesMarketData(result));
        encoder.incremental(1, 5, 0, 0, result, 1 << 20);
        final IncrementalDecoder decoder = new IncrementalDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        decoder.levels();
        decoder.trades();
        final IncrementalDecoder.StatusesDecoder statuses = decoder.statuses();
        assertEquals(1, statuses.count());
        statuses.next();
        assertEquals(3, statuses.symbol());
        assertEquals(TradingStatus.HALTED, statuses.status());

        result.rejectReason = io.chronex.api.RejectReason.UNKNOWN_SYMBOL;
        assertFalse(FeedEncoder.carriesMarketData(result));
        result.begin(CommandType.SET_REFERENCE_PRICE);
        assertFalse(FeedEncoder.carriesMarketData(result));
    }

    @Test
    void aSnapshotCarriesTheWholeBookBestFirstAndTheSymbol() {
        final Books books = new Books();
        final Books.Book book = books.bookOrNew(2);
        book.levels(Side.BUY).apply(100, 5, 1);
        book.levels(Side.BUY).apply(102, 7, 2);
        book.levels(Side.SELL).apply(105, 9, 3);
        final int length = encoder.epoch(78).snapshot(17, 0x99, 2, "GLOBEX", 100, 4, true, book, 1 << 20);
        assertFalse(encoder.leftOut());
        final SnapshotDecoder decoder = new SnapshotDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(length, MessageHeaderDecoder.ENCODED_LENGTH + decoder.sbeDecodedLength());
        final SnapshotDecoder again = new SnapshotDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(17, again.seq());
        assertEquals(0x99, again.eventsIndex());
        assertEquals(100, again.priceScale());
        assertEquals(2, again.symbol());
        assertEquals(4, again.symbolCount());
        assertEquals(78, again.epoch());
        assertEquals(TradingStatus.HALTED, again.status());
        final StringBuilder levels = new StringBuilder();
        for (final SnapshotDecoder.BidsDecoder bid : again.bids()) {
            levels.append("bid ").append(bid.price()).append('x').append(bid.quantity()).append('/').append(bid.orders()).append(' ');
        }
        for (final SnapshotDecoder.AsksDecoder ask : again.asks()) {
            levels.append("ask ").append(ask.price()).append('x').append(ask.quantity()).append('/').append(ask.orders()).append(' ');
        }
        assertEquals("bid 102x7/2 bid 100x5/1 ask 105x9/3 ", levels.toString());
        assertEquals("GLOBEX", again.name());
        assertEquals(Content.WHOLE, again.content());

        // Room for two levels only: the best of each side, flagged.
        final int two = length - SnapshotDecoder.BidsDecoder.sbeBlockLength();
        assertTrue(encoder.snapshot(17, 0x99, 2, "GLOBEX", 100, 4, true, book, two) <= two);
        assertTrue(encoder.leftOut());
        final SnapshotDecoder cut = new SnapshotDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(Content.LEFT_OUT, cut.content());
        final StringBuilder best = new StringBuilder();
        for (final SnapshotDecoder.BidsDecoder bid : cut.bids()) {
            best.append("bid ").append(bid.price()).append(' ');
        }
        for (final SnapshotDecoder.AsksDecoder ask : cut.asks()) {
            best.append("ask ").append(ask.price()).append(' ');
        }
        assertEquals("bid 102 ask 105 ", best.toString());
    }

    @Test
    void aHeartbeatNamesTheLastSequence() {
        encoder.epoch(79).heartbeat(12, 0x77, 5);
        final HeartbeatDecoder decoder = new HeartbeatDecoder().wrapAndApplyHeader(encoder.buffer(), 0, header);
        assertEquals(12, decoder.seq());
        assertEquals(0x77, decoder.eventsIndex());
        assertEquals(5, decoder.publishNanos());
        assertEquals(79, decoder.epoch());
    }

    private static void level(final LevelChange change, final int symbol, final Side side, final long price, final long quantity,
                              final int orders) {
        change.symbol = symbol;
        change.side = side;
        change.price = price;
        change.quantity = quantity;
        change.orderCount = orders;
    }
}
