package io.chronex.marketdata;

import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.marketdata.sbe.Content;
import io.chronex.marketdata.sbe.GroupSizeEncodingEncoder;
import io.chronex.marketdata.sbe.HeartbeatEncoder;
import io.chronex.marketdata.sbe.IncrementalEncoder;
import io.chronex.marketdata.sbe.MessageHeaderEncoder;
import io.chronex.marketdata.sbe.Side;
import io.chronex.marketdata.sbe.SnapshotEncoder;
import io.chronex.marketdata.sbe.TradingStatus;
import io.chronex.queues.book.Books;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes the feed's messages (src/main/resources/sbe/marketdata.xml) into one reused buffer: an incremental from an
 * events excerpt's result, a symbol's snapshot from its book, a heartbeat. Allocates nothing once the buffer has grown
 * to the largest message so far.
 */
public final class FeedEncoder {
    /** SBE group counts are uint16: no group of a message has more entries than this. */
    public static final int MAX_GROUP = 65_535;

    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final IncrementalEncoder incremental = new IncrementalEncoder();
    private final SnapshotEncoder snapshot = new SnapshotEncoder();
    private final HeartbeatEncoder heartbeat = new HeartbeatEncoder();
    private long epoch;
    private boolean leftOut;

    /**
     * Whether the result changes what the feed shows: a level, a trade, or a symbol's trading status (an accepted HALT or
     * RESUME). Exactly these excerpts get an incremental sequence number, so the numbering is a function of the queue.
     */
    public static boolean carriesMarketData(final Result result) {
        return result.levelChangeCount() > 0 || result.fillCount() > 0 || isStatusChange(result);
    }

    private static boolean isStatusChange(final Result result) {
        return (result.commandType == CommandType.HALT || result.commandType == CommandType.RESUME) && !result.isRejected();
    }

    /**
     * Sets the epoch every message carries from now on: it names the numbering (one events queue's), so that a client
     * can tell a publisher that numbers another queue from 1 again from re-sends it should ignore.
     */
    public FeedEncoder epoch(final long epoch) {
        this.epoch = epoch;
        return this;
    }

    /** The buffer the last message was written to, from offset 0. */
    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /**
     * Writes the incremental for an excerpt's result; returns its length. An excerpt too big for one message of at most
     * {@code maxLength} bytes (or with more than {@value #MAX_GROUP} level changes or fills: SBE's uint16 counts) is sent
     * with empty groups and {@link Content#LEFT_OUT} under its own sequence number, so the numbering stays a function of the
     * queue: a client treats it as lost and recovers from the snapshots ({@link #leftOut} says it happened).
     */
    public int incremental(final long seq, final long eventsIndex, final long engineAppendNanos, final long publishNanos,
                           final Result result, final int maxLength) {
        final boolean status = isStatusChange(result);
        final int levelCount = result.levelChangeCount();
        final int fillCount = result.fillCount();
        final long whole = MessageHeaderEncoder.ENCODED_LENGTH + IncrementalEncoder.BLOCK_LENGTH
            + 3L * GroupSizeEncodingEncoder.ENCODED_LENGTH + (long) levelCount * IncrementalEncoder.LevelsEncoder.sbeBlockLength()
            + (long) fillCount * IncrementalEncoder.TradesEncoder.sbeBlockLength()
            + (status ? IncrementalEncoder.StatusesEncoder.sbeBlockLength() : 0);
        leftOut = levelCount > MAX_GROUP || fillCount > MAX_GROUP || whole > maxLength;
        incremental.wrapAndApplyHeader(buffer, 0, header)
            .seq(seq)
            .eventsIndex(eventsIndex)
            .engineAppendNanos(engineAppendNanos)
            .publishNanos(publishNanos)
            .epoch(epoch)
            .content(leftOut ? Content.LEFT_OUT : Content.WHOLE);
        final int levelsSent = leftOut ? 0 : levelCount;
        final IncrementalEncoder.LevelsEncoder levels = incremental.levelsCount(levelsSent);
        for (int i = 0; i < levelsSent; i++) {
            final LevelChange change = result.levelChange(i);
            levels.next().price(change.price).quantity(change.quantity).symbol(change.symbol).orders(change.orderCount)
                .side(side(change.side));
        }
        final int fillsSent = leftOut ? 0 : fillCount;
        final IncrementalEncoder.TradesEncoder trades = incremental.tradesCount(fillsSent);
        for (int i = 0; i < fillsSent; i++) {
            final Fill fill = result.fill(i);
            trades.next().tradeId(fill.tradeId).price(fill.price).quantity(fill.quantity).symbol(result.symbol)
                .aggressorSide(side(fill.takerSide));
        }
        final IncrementalEncoder.StatusesEncoder statuses = incremental.statusesCount(status && !leftOut ? 1 : 0);
        if (status && !leftOut) {
            statuses.next().symbol(result.symbol)
                .status(result.commandType == CommandType.HALT ? TradingStatus.HALTED : TradingStatus.TRADING);
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + incremental.encodedLength();
    }

    /** Whether the last incremental or snapshot written left out what did not fit ({@link Content#LEFT_OUT}). */
    public boolean leftOut() {
        return leftOut;
    }

    /**
     * Writes one symbol's snapshot; returns its length. {@code name} must be ASCII, at most 255 characters. A book too deep
     * for one message of at most {@code maxLength} bytes (or a side deeper than {@value #MAX_GROUP} levels) is sent with
     * each side's best levels that fit, flagged {@link Content#LEFT_OUT} ({@link #leftOut}).
     */
    public int snapshot(final long seq, final long eventsIndex, final int symbol, final String name, final long priceScale,
                        final int symbolCount, final boolean halted, final Books.Book book, final int maxLength) {
        final Books.Levels bids = book == null ? null : book.levels(io.chronex.api.Side.BUY);
        final Books.Levels asks = book == null ? null : book.levels(io.chronex.api.Side.SELL);
        final int bidLevels = bids == null ? 0 : bids.size();
        final int askLevels = asks == null ? 0 : asks.size();
        final int room = (int) Math.max(0, (maxLength - MessageHeaderEncoder.ENCODED_LENGTH - SnapshotEncoder.BLOCK_LENGTH
            - 2L * GroupSizeEncodingEncoder.ENCODED_LENGTH - SnapshotEncoder.nameHeaderLength() - name.length())
            / SnapshotEncoder.BidsEncoder.sbeBlockLength());
        final int perSide = Math.min(MAX_GROUP, room / 2);
        final boolean fits = bidLevels + askLevels <= room && bidLevels <= MAX_GROUP && askLevels <= MAX_GROUP;
        final int bidCount = fits ? bidLevels : Math.min(bidLevels, perSide);
        final int askCount = fits ? askLevels : Math.min(askLevels, perSide);
        leftOut = !fits;
        snapshot.wrapAndApplyHeader(buffer, 0, header)
            .seq(seq)
            .eventsIndex(eventsIndex)
            .priceScale(priceScale)
            .symbol(symbol)
            .symbolCount(symbolCount)
            .status(halted ? TradingStatus.HALTED : TradingStatus.TRADING)
            .epoch(epoch)
            .content(fits ? Content.WHOLE : Content.LEFT_OUT);
        final SnapshotEncoder.BidsEncoder bidGroup = snapshot.bidsCount(bidCount);
        for (int rank = 0; rank < bidCount; rank++) {
            bidGroup.next().price(bids.price(rank)).quantity(bids.quantity(rank)).orders(bids.orders(rank));
        }
        final SnapshotEncoder.AsksEncoder askGroup = snapshot.asksCount(askCount);
        for (int rank = 0; rank < askCount; rank++) {
            askGroup.next().price(asks.price(rank)).quantity(asks.quantity(rank)).orders(asks.orders(rank));
        }
        snapshot.name(name);
        return MessageHeaderEncoder.ENCODED_LENGTH + snapshot.encodedLength();
    }

    /** Writes a heartbeat; returns its length. */
    public int heartbeat(final long seq, final long eventsIndex, final long publishNanos) {
        heartbeat.wrapAndApplyHeader(buffer, 0, header).seq(seq).eventsIndex(eventsIndex).publishNanos(publishNanos).epoch(epoch);
        return MessageHeaderEncoder.ENCODED_LENGTH + heartbeat.encodedLength();
    }

    /** The feed's side for the engine's. */
    public static Side side(final io.chronex.api.Side side) {
        return side == io.chronex.api.Side.BUY ? Side.BID : Side.ASK;
    }
}
