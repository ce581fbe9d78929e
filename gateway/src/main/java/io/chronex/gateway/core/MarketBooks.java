package io.chronex.gateway.core;

import io.chronex.api.CommandType;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.queues.book.Books;
import org.agrona.collections.Int2ObjectHashMap;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * The book and trading status of every configured symbol as the events read so far leave them, whatever protocol
 * publishes them, and what the event applied last touched (which symbols, which sides, whether it traded, whether a halt
 * or resume came), so a publisher sends only what changed. A front-end keeps its own state per symbol by extending
 * {@link Symbol}. An event that cannot be applied leaves the books doubtful: said once in the log and counted.
 *
 * @param <S> the front-end's symbol state
 */
public final class MarketBooks<S extends MarketBooks.Symbol> {
    /** One symbol: its book's sides, its trading status, and what the last event applied did to it. */
    public static class Symbol {
        public final GatewayConfig.Symbol config;
        public final byte[] name;
        /** Bids (0) and offers (1), best first. */
        public final Books.Levels[] sides = new Books.Levels[2];
        public boolean halted;
        /** The last event that touched it, and which sides (bit 0 bids, bit 1 offers) and whether its status changed. */
        long touchedAt = -1;
        public int touchedSides;
        public boolean statusChanged;
        public boolean traded;

        protected Symbol(final GatewayConfig.Symbol config, final Books books) {
            this.config = config;
            this.name = config.name().getBytes(StandardCharsets.US_ASCII);
            final Books.Book book = books.bookOrNew(config.id());
            sides[0] = book.levels(Side.BUY);
            sides[1] = book.levels(Side.SELL);
        }
    }

    private final Books books = new Books();
    private final Int2ObjectHashMap<S> symbols = new Int2ObjectHashMap<>();
    private final List<S> symbolList;
    private final Consumer<String> log;
    /** Symbols the event applied last touched. */
    private final Object[] touched;
    private int touchedCount;
    private long eventCount;
    /** What applying each level change of the event did (Books.ADDED ...), by the change's position in the result. */
    private int[] applied = new int[64];
    /**
     * Events that could not be decoded or applied: the books may differ from the engine's for what they touched
     * (docs/gateway.md).
     */
    private long unappliedEvents;
    private long rebuiltEvents;

    /** The configured symbols, each made into the front-end's state by {@code make} (given the books to take its sides from). */
    public MarketBooks(final List<GatewayConfig.Symbol> configs, final java.util.function.BiFunction<GatewayConfig.Symbol, Books, S> make,
                       final Consumer<String> log) {
        this.log = log;
        final java.util.ArrayList<S> list = new java.util.ArrayList<>(configs.size());
        for (final GatewayConfig.Symbol c : configs) {
            final S s = make.apply(c, books);
            list.add(s);
            symbols.put(c.id(), s);
        }
        this.symbolList = List.copyOf(list);
        this.touched = new Object[list.size()];
    }

    /** Neutral symbols, for a front-end with no state of its own per symbol. */
    public static MarketBooks<Symbol> plain(final List<GatewayConfig.Symbol> configs, final Consumer<String> log) {
        return new MarketBooks<>(configs, Symbol::new, log);
    }

    /** The book kept for every symbol (for tests and tools: the gateway's view of the events read so far). */
    public Books books() {
        return books;
    }

    /** The symbols in the configuration's order. */
    public List<S> symbols() {
        return symbolList;
    }

    /** The symbol with the engine's id, or null. */
    public S symbol(final int symbolId) {
        return symbols.get(symbolId);
    }

    /** Whether the symbol is halted as of the last event read. */
    public boolean halted(final int symbolId) {
        final S s = symbols.get(symbolId);
        return s != null && s.halted;
    }

    /** At start: an event the gateway had already answered before it stopped; only the books and the status learn from it. */
    public void rebuild(final Result r) {
        if (apply(r)) {
            rebuiltEvents++;
        }
    }

    /** Events applied by {@link #rebuild} since start. */
    public long rebuiltEvents() {
        return rebuiltEvents;
    }

    /** Events not applied (undecodable, or failed to apply): while above 0 the books may differ from the engine's. */
    public long unappliedEvents() {
        return unappliedEvents;
    }

    /**
     * Applies the event's level changes and status to the books, noting which symbols and sides it touched; false when
     * that failed (a bug, or an event unlike any the engine writes): the books are then as doubtful as after an
     * undecodable event, and what it touched so far is in {@link #touched} for a publisher to refresh.
     */
    public boolean apply(final Result r) {
        try {
            applyChanges(r);
            return true;
        } catch (final RuntimeException e) {
            if (unappliedEvents++ == 0) {
                log.accept("market data: an event could not be applied to the books (" + e + "); the books published from here"
                    + " on may differ from the engine's for the levels it touched (counted as doubtful in the status line)");
            }
            return false;
        }
    }

    private void applyChanges(final Result r) {
        eventCount++;
        touchedCount = 0;
        final int changes = r.levelChangeCount();
        if (changes > applied.length) {
            applied = new int[Math.max(changes, applied.length * 2)];
        }
        for (int i = 0; i < changes; i++) {
            final LevelChange c = r.levelChange(i);
            applied[i] = books.apply(c);
            final S s = touch(c.symbol);
            if (s != null && applied[i] != Books.NONE) {
                s.touchedSides |= c.side == Side.BUY ? 1 : 2;
            }
        }
        if (r.fillCount() > 0) {
            final S s = touch(r.symbol);
            if (s != null) {
                s.traded = true;
            }
        }
        if ((r.commandType == CommandType.HALT || r.commandType == CommandType.RESUME) && !r.isRejected()) {
            final S s = touch(r.symbol);
            if (s != null) {
                // Said even when it was already so: the client hears every accepted halt and resume.
                s.statusChanged = true;
                s.halted = r.commandType == CommandType.HALT;
            }
        }
    }

    private S touch(final int symbolId) {
        final S s = symbols.get(symbolId);
        if (s == null) {
            return null;
        }
        if (s.touchedAt != eventCount) {
            s.touchedAt = eventCount;
            s.touchedSides = 0;
            s.statusChanged = false;
            s.traded = false;
            touched[touchedCount++] = s;
        }
        return s;
    }

    /** How many symbols the event applied last touched. */
    public int touchedCount() {
        return touchedCount;
    }

    /** The i-th symbol the event applied last touched. */
    @SuppressWarnings("unchecked")
    public S touched(final int i) {
        return (S) touched[i];
    }

    /** What applying the event's i-th level change did to its book: Books.ADDED, CHANGED, REMOVED or NONE. */
    public int applied(final int i) {
        return applied[i];
    }

    /**
     * An events excerpt that could not be decoded: its level changes are unknown, so the books may differ from the engine's
     * for the levels it touched, and nothing in the later events can repair that (they carry changes, not levels). Counted
     * and said once in the log; a restart rebuilds the books from the same events and cannot help either.
     */
    public void undecodable(final long index) {
        if (unappliedEvents++ == 0) {
            log.accept("market data: events excerpt " + Long.toHexString(index) + " could not be decoded; the books published from"
                + " here on may differ from the engine's for the levels it touched (counted as doubtful in the status line)");
        }
    }

    /**
     * What the books and trading status are after the events read so far, for a gateway's checkpoint: the books, every
     * symbol's halt and the count of events not applied (the books stay doubtful across a restart, as they are).
     */
    public void writeTo(final java.io.DataOutput out) throws java.io.IOException {
        books.writeTo(out);
        out.writeInt(symbolList.size());
        for (final S s : symbolList) {
            out.writeInt(s.config.id());
            out.writeBoolean(s.halted);
        }
        out.writeLong(unappliedEvents);
    }

    /** Becomes what {@link #writeTo} wrote (at start, before any subscription); a symbol no longer configured is left out. */
    public void readFrom(final java.nio.ByteBuffer in) {
        books.readFrom(in);
        final int count = in.getInt();
        if (count < 0 || count > in.remaining() / 5) {
            throw new IllegalArgumentException("market data: " + count + " symbols cannot be");
        }
        for (int i = 0; i < count; i++) {
            final S s = symbols.get(in.getInt());
            final boolean halted = in.get() != 0;
            if (s != null) {
                s.halted = halted;
            }
        }
        unappliedEvents = in.getLong();
    }
}
