package io.chronex.marketdata.client;

import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.marketdata.sbe.Content;
import io.chronex.marketdata.sbe.HeartbeatDecoder;
import io.chronex.marketdata.sbe.IncrementalDecoder;
import io.chronex.marketdata.sbe.MessageHeaderDecoder;
import io.chronex.marketdata.sbe.SnapshotDecoder;
import io.chronex.marketdata.sbe.TradingStatus;
import io.chronex.queues.book.Books;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * A feed client's books and its recovery, without any transport: it is handed each message received on either channel
 * and keeps every symbol's book, trading status and last trade, detects gaps in the incremental sequence and recovers
 * from the snapshot channel (docs/marketdata.md, "Joining and recovering").
 *
 * <p>While recovering, incrementals are copied into one preallocated buffer, contiguous by sequence from its first;
 * a symbol's snapshot valid at S is usable when no incremental after S is missing from that buffer. Once every symbol
 * of the feed has a usable snapshot (and the buffer reaches the newest of them), the buffered incrementals are applied,
 * each to the symbols whose snapshot does not already include it, and the client is in sync again. A hole in the buffer
 * (a loss during recovery) restarts the buffer after it and forgets the snapshots it makes unusable; an overflow empties
 * it and waits for the next snapshot cycle. Allocation-free when steady (a symbol's first snapshot allocates its entry).
 */
public final class FeedState {
    /** Told of every incremental the books take in sync, on the thread that hands the messages in (a benchmark's probe). */
    @FunctionalInterface
    public interface AppliedListener {
        /** Incremental {@code seq}, appended by the engine at {@code engineAppendNanos}, has just been applied. */
        void applied(long seq, long engineAppendNanos);
    }

    /** What the client knows of one symbol. */
    public static final class SymbolState {
        private final int id;
        private final String name;
        private final SymbolSpec spec;
        private boolean halted;
        /** The incremental sequence the symbol's book is known to include, during recovery. */
        private long snapshotSeq = -1;
        private long snapshotEventsIndex = -1;
        private boolean recovered;
        private boolean complete = true;
        private long lastTradeId;
        private long lastTradePrice;
        private long lastTradeQuantity;
        private long trades;

        SymbolState(final int id, final String name, final long priceScale) {
            this.id = id;
            this.name = name;
            this.spec = new SymbolSpec(id, name, priceScale, 1, 1, 0, 0);
        }

        public int id() {
            return id;
        }

        public String name() {
            return name;
        }

        /** The symbol's price formatting, as bin/audit prints prices. */
        public SymbolSpec spec() {
            return spec;
        }

        /** False when the book came from a snapshot cut to its best levels (too deep for one message): levels may be missing. */
        public boolean complete() {
            return complete;
        }

        public boolean halted() {
            return halted;
        }

        public long lastTradeId() {
            return lastTradeId;
        }

        public long lastTradePrice() {
            return lastTradePrice;
        }

        public long lastTradeQuantity() {
            return lastTradeQuantity;
        }

        /** Trades seen since the client was last in sync from a snapshot (a snapshot carries no trades). */
        public long trades() {
            return trades;
        }
    }

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final IncrementalDecoder incremental = new IncrementalDecoder();
    private final SnapshotDecoder snapshot = new SnapshotDecoder();
    private final HeartbeatDecoder heartbeat = new HeartbeatDecoder();
    private final Books books = new Books();
    private final Int2ObjectHashMap<SymbolState> symbols = new Int2ObjectHashMap<>();
    /** The symbols in the order first seen, for iteration without the map's iterator. */
    private SymbolState[] symbolList = new SymbolState[0];
    private int expectedSymbols = -1;

    private boolean synced;
    /** The numbering being followed (0 before the first message). */
    private long epoch;
    private long epochChanges;
    /** The last incremental sequence applied (valid when synced). */
    private long lastSeq;
    private long lastEventsIndex = -1;

    private final UnsafeBuffer buffer;
    private int bufferUsed;
    /** The first sequence in the recovery buffer, -1 while unknown. */
    private long bufferFrom = -1;
    /** The sequence the recovery buffer expects next, -1 while unknown. */
    private long nextSeq = -1;
    private final UnsafeBuffer replay = new UnsafeBuffer(0, 0);

    private long gaps;
    private long recoveries;
    private long overflows;
    private long duplicates;
    private long unknown;
    private long malformed;
    private long leftOut;
    private long snapshotsCut;
    private long applied;
    private long lastEngineAppendNanos;
    private long lastPublishNanos;
    private AppliedListener listener;

    /** A client that buffers up to {@code recoveryBufferBytes} of incrementals while it recovers. */
    public FeedState(final int recoveryBufferBytes) {
        this.buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(recoveryBufferBytes));
    }

    /** Handles one whole message from either channel. */
    public void onMessage(final DirectBuffer message, final int offset, final int length) {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH) {
            unknown++;
            return;
        }
        header.wrap(message, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID) {
            unknown++;
            return;
        }
        try {
            switch (header.templateId()) {
                case IncrementalDecoder.TEMPLATE_ID -> onIncremental(message, offset, length);
                case SnapshotDecoder.TEMPLATE_ID -> onSnapshot(message, offset);
                case HeartbeatDecoder.TEMPLATE_ID -> onHeartbeat(message, offset);
                default -> unknown++;
            }
        } catch (final RuntimeException e) {
            // A message cut short or garbled on the way (bad input never stops the client): it may have been applied in
            // part, so the books are no longer known good; treated as a gap. Out of sync too, the buffer is dropped: a garbled
            // incremental in it (only its sequence is read on the way in) would fail every replay of it.
            malformed++;
            if (synced) {
                gaps++;
            }
            startRecovery();
        }
    }

    private void onIncremental(final DirectBuffer message, final int offset, final int length) {
        incremental.wrapAndApplyHeader(message, offset, header);
        epoch(incremental.epoch());
        if (incremental.content() != Content.WHOLE) {
            // An excerpt too big for one message, sent without its changes: as good as lost, so the next message (or
            // heartbeat) shows the gap and the client recovers from snapshots taken after it.
            leftOut++;
            return;
        }
        final long seq = incremental.seq();
        if (synced) {
            if (seq <= lastSeq) {
                duplicates++;
                return;
            }
            if (seq == lastSeq + 1) {
                apply(incremental, false);
                if (listener != null) {
                    listener.applied(seq, incremental.engineAppendNanos());
                }
                return;
            }
            gaps++;
            startRecovery();
        }
        if (nextSeq >= 0 && seq < nextSeq) {
            duplicates++;
            return;
        }
        if (nextSeq < 0 || seq > nextSeq) {
            restartBuffer(seq);
        }
        if (bufferUsed + Integer.BYTES + length > buffer.capacity()) {
            // Cannot bridge from any snapshot seen so far: wait for a cycle whose snapshots are newer than the next message.
            overflows++;
            bufferUsed = 0;
            bufferFrom = -1;
            nextSeq = -1;
            forgetSnapshots(Long.MAX_VALUE);
            return;
        }
        buffer.putInt(bufferUsed, length);
        buffer.putBytes(bufferUsed + Integer.BYTES, message, offset, length);
        bufferUsed += Integer.BYTES + length;
        nextSeq = seq + 1;
        tryComplete();
    }

    private void onHeartbeat(final DirectBuffer message, final int offset) {
        heartbeat.wrapAndApplyHeader(message, offset, header);
        epoch(heartbeat.epoch());
        final long seq = heartbeat.seq();
        if (synced) {
            if (seq == lastSeq) {
                lastEventsIndex = Math.max(lastEventsIndex, heartbeat.eventsIndex());
            } else if (seq > lastSeq) {
                // The newest incrementals were lost and nothing followed them to show it.
                gaps++;
                startRecovery();
                restartBuffer(seq + 1);
            }
            return;
        }
        if (nextSeq < 0 || seq >= nextSeq) {
            restartBuffer(seq + 1);
            tryComplete();
        }
    }

    private void onSnapshot(final DirectBuffer message, final int offset) {
        snapshot.wrapAndApplyHeader(message, offset, header);
        epoch(snapshot.epoch());
        final int id = snapshot.symbol();
        SymbolState symbol = symbols.get(id);
        expectedSymbols = snapshot.symbolCount();
        final long seq = snapshot.seq();
        final long eventsIndex = snapshot.eventsIndex();
        final long priceScale = snapshot.priceScale();
        final boolean halted = snapshot.status() == TradingStatus.HALTED;
        if (snapshot.content() != Content.WHOLE) {
            snapshotsCut++;
        }
        if (synced && symbol == null) {
            // A symbol this client has never seen (the publisher restarted with more): its book comes with a new join.
            startRecovery();
        }
        if (synced || symbol != null && symbol.recovered && seq <= symbol.snapshotSeq || bufferFrom >= 0 && seq + 1 < bufferFrom) {
            // In sync, not newer than the one held, or too old to bridge to the buffered incrementals.
            return;
        }
        final Books.Book book = books.bookOrNew(id);
        book.clear();
        final SnapshotDecoder.BidsDecoder bids = snapshot.bids();
        while (bids.hasNext()) {
            bids.next();
            book.levels(Side.BUY).apply(bids.price(), bids.quantity(), bids.orders());
        }
        final SnapshotDecoder.AsksDecoder asks = snapshot.asks();
        while (asks.hasNext()) {
            asks.next();
            book.levels(Side.SELL).apply(asks.price(), asks.quantity(), asks.orders());
        }
        if (symbol == null) {
            symbol = new SymbolState(id, snapshot.name(), priceScale);
            symbols.put(id, symbol);
            final SymbolState[] grown = java.util.Arrays.copyOf(symbolList, symbolList.length + 1);
            grown[symbolList.length] = symbol;
            symbolList = grown;
        }
        symbol.halted = halted;
        symbol.complete = snapshot.content() == Content.WHOLE;
        symbol.snapshotSeq = seq;
        symbol.snapshotEventsIndex = eventsIndex;
        symbol.recovered = true;
        tryComplete();
    }

    /**
     * Another epoch is another numbering (the publisher now serves another events queue): nothing known so far is
     * comparable with it, so the client joins afresh.
     */
    private void epoch(final long messageEpoch) {
        if (messageEpoch == epoch) {
            return;
        }
        if (epoch != 0) {
            epochChanges++;
        }
        epoch = messageEpoch;
        startRecovery();
        lastSeq = 0;
        lastEventsIndex = -1;
        for (final SymbolState symbol : symbolList) {
            symbol.snapshotSeq = -1;
            symbol.snapshotEventsIndex = -1;
        }
    }

    private void startRecovery() {
        synced = false;
        bufferUsed = 0;
        bufferFrom = -1;
        nextSeq = -1;
        forgetSnapshots(Long.MAX_VALUE);
    }

    /** The buffer now holds nothing before {@code seq}: snapshots older than seq - 1 can no longer be bridged. */
    private void restartBuffer(final long seq) {
        bufferUsed = 0;
        bufferFrom = seq;
        nextSeq = seq;
        forgetSnapshots(seq - 1);
    }

    private void forgetSnapshots(final long olderThan) {
        for (final SymbolState symbol : symbolList) {
            if (symbol.snapshotSeq < olderThan) {
                symbol.recovered = false;
            }
        }
    }

    private void tryComplete() {
        if (expectedSymbols < 0 || symbolList.length < expectedSymbols) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (final SymbolState symbol : symbolList) {
            if (!symbol.recovered) {
                return;
            }
            min = Math.min(min, symbol.snapshotSeq);
            max = Math.max(max, symbol.snapshotSeq);
        }
        final long buffered = nextSeq - 1;
        if (min != max && (nextSeq < 0 || buffered < max)) {
            // The older snapshots need the incrementals up to the newest one, which have not all arrived.
            return;
        }
        long eventsIndex = -1;
        for (final SymbolState symbol : symbolList) {
            if (symbol.snapshotSeq == max) {
                eventsIndex = Math.max(eventsIndex, symbol.snapshotEventsIndex);
            }
        }
        lastSeq = max;
        lastEventsIndex = eventsIndex;
        for (int at = 0; at < bufferUsed; ) {
            final int length = buffer.getInt(at);
            replay.wrap(buffer, at + Integer.BYTES, length);
            header.wrap(replay, 0);
            incremental.wrapAndApplyHeader(replay, 0, header);
            if (incremental.seq() > min) {
                apply(incremental, true);
            }
            at += Integer.BYTES + length;
        }
        lastSeq = Math.max(lastSeq, buffered);
        bufferUsed = 0;
        bufferFrom = -1;
        nextSeq = -1;
        synced = true;
        recoveries++;
    }

    /** Applies an incremental; while replaying the recovery buffer, only to symbols whose snapshot predates it. */
    private void apply(final IncrementalDecoder message, final boolean afterSnapshots) {
        final long seq = message.seq();
        final IncrementalDecoder.LevelsDecoder levels = message.levels();
        while (levels.hasNext()) {
            levels.next();
            final int id = levels.symbol();
            if (afterSnapshots && !newerThanSnapshot(id, seq)) {
                continue;
            }
            books.bookOrNew(id).levels(levels.side() == io.chronex.marketdata.sbe.Side.BID ? Side.BUY : Side.SELL)
                .apply(levels.price(), levels.quantity(), levels.orders());
        }
        final IncrementalDecoder.TradesDecoder trades = message.trades();
        while (trades.hasNext()) {
            trades.next();
            final SymbolState symbol = symbols.get(trades.symbol());
            if (symbol != null && (!afterSnapshots || seq > symbol.snapshotSeq)) {
                symbol.lastTradeId = trades.tradeId();
                symbol.lastTradePrice = trades.price();
                symbol.lastTradeQuantity = trades.quantity();
                symbol.trades++;
            }
        }
        final IncrementalDecoder.StatusesDecoder statuses = message.statuses();
        while (statuses.hasNext()) {
            statuses.next();
            final SymbolState symbol = symbols.get(statuses.symbol());
            if (symbol != null && (!afterSnapshots || seq > symbol.snapshotSeq)) {
                symbol.halted = statuses.status() == TradingStatus.HALTED;
            }
        }
        if (seq > lastSeq) {
            lastSeq = seq;
            lastEventsIndex = message.eventsIndex();
        }
        lastEngineAppendNanos = message.engineAppendNanos();
        lastPublishNanos = message.publishNanos();
        applied++;
    }

    private boolean newerThanSnapshot(final int id, final long seq) {
        final SymbolState symbol = symbols.get(id);
        return symbol == null || seq > symbol.snapshotSeq;
    }

    /**
     * Tells {@code appliedListener} (null: nobody) of each incremental applied in sync, right after its books changed;
     * not of those replayed from the recovery buffer, which waited for a snapshot.
     */
    public void onApplied(final AppliedListener appliedListener) {
        this.listener = appliedListener;
    }

    /** Whether every symbol's book is known up to {@link #lastSeq()} (false while joining or recovering). */
    public boolean synced() {
        return synced;
    }

    /** The last incremental sequence the books include. */
    public long lastSeq() {
        return lastSeq;
    }

    /** The events-queue index the books are known to be valid at (-1 before the first). */
    public long lastEventsIndex() {
        return lastEventsIndex;
    }

    /** Gaps detected in the incremental sequence after being in sync. */
    public long gaps() {
        return gaps;
    }

    /** Times the client came into sync from snapshots: the join, and once per gap recovered. */
    public long recoveries() {
        return recoveries;
    }

    /** Times the publisher started another numbering (another events queue) while this client followed one. */
    public long epochChanges() {
        return epochChanges;
    }

    /** Times the recovery buffer overflowed (each waits for a later snapshot cycle). */
    public long overflows() {
        return overflows;
    }

    /** Incrementals received again or already covered (ignored). */
    public long duplicates() {
        return duplicates;
    }

    /** Messages that were not the feed's (another schema, template or a short frame). */
    public long unknown() {
        return unknown;
    }

    /** Incrementals sent without their changes ({@code Content.LEFT_OUT}: too big for one message), each recovered as lost. */
    public long leftOut() {
        return leftOut;
    }

    /**
     * Snapshots received with only their best levels ({@code Content.LEFT_OUT}: the book too deep for one message): the
     * levels beyond them are missing from this client's book until incrementals bring them.
     */
    public long snapshotsCut() {
        return snapshotsCut;
    }

    /** Messages of the feed's schema that did not decode (cut short, garbled). */
    public long malformed() {
        return malformed;
    }

    /** Incrementals applied to the books. */
    public long applied() {
        return applied;
    }

    /** The engine's append time of the last incremental applied (System.nanoTime of the publisher's host). */
    public long lastEngineAppendNanos() {
        return lastEngineAppendNanos;
    }

    /** The publisher's send time of the last incremental applied. */
    public long lastPublishNanos() {
        return lastPublishNanos;
    }

    /** The symbols seen in snapshots, in the order first seen; do not modify. */
    public SymbolState[] symbols() {
        return symbolList;
    }

    /** A symbol by name, or null. */
    public SymbolState symbol(final String name) {
        for (final SymbolState symbol : symbolList) {
            if (symbol.name.equals(name)) {
                return symbol;
            }
        }
        return null;
    }

    /** Every symbol's book. */
    public Books books() {
        return books;
    }

    /**
     * The final line bin/md-client prints for a symbol: {@code RESULT symbol=.. best_bid=.. best_ask=.. bid_levels=..
     * ask_levels=.. bid_orders=.. ask_orders=.. last_events_index=<hex> gaps=.. recovered=..}.
     */
    public String resultLine(final SymbolState symbol) {
        final Books.Book book = books.bookOrNew(symbol.id);
        final Books.Levels bids = book.levels(Side.BUY);
        final Books.Levels asks = book.levels(Side.SELL);
        return String.format(Locale.ROOT, "RESULT symbol=%s best_bid=%s best_ask=%s bid_levels=%d ask_levels=%d bid_orders=%d"
                + " ask_orders=%d last_events_index=%s gaps=%d recovered=%d", symbol.name,
            bids.size() == 0 ? "-" : symbol.spec.formatPrice(bids.price(0)),
            asks.size() == 0 ? "-" : symbol.spec.formatPrice(asks.price(0)),
            bids.size(), asks.size(), orders(bids), orders(asks), Long.toHexString(lastEventsIndex), gaps, recoveries);
    }

    private static long orders(final Books.Levels levels) {
        long total = 0;
        for (int rank = 0; rank < levels.size(); rank++) {
            total += levels.orders(rank);
        }
        return total;
    }
}
