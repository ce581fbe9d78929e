package io.chronex.marketdata;

import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Produces a real events queue for the feed's tests: random orders, cancels, halts and resumes run through the real
 * matching engine, each result appended as the engine process appends it. Use from one thread (Chronicle's appender).
 * First, as an operator funds accounts (config/demo-funding.admin), each account gets {@link #FUNDS} of every asset of the
 * configuration by a deposit (its result appended too), so that its orders pass the FUNDS check.
 */
final class ExchangeWriter implements AutoCloseable {
    private static final long[] ACCOUNTS = {101, 102, 103, 104, 105, 106, 107, 108};
    /** Each account's deposit of each asset: far more than its orders can hold. */
    static final long FUNDS = 1_000_000_000_000L;

    private final EngineConfig config;
    private final MatchingEngine engine;
    private final SingleChronicleQueue events;
    private final ExcerptAppender appender;
    private final SplittableRandom random;
    private final Command command = new Command();
    private final Result result = new Result();
    private final EventHeader header = new EventHeader();
    private final long[] nextClientOrderId = new long[ACCOUNTS.length];
    private final boolean[] halted;
    private long commandIndex;
    private long written;
    private long lastIndex = -1;

    ExchangeWriter(final EngineConfig config, final DataDirectory data, final long seed) {
        this.config = config;
        this.engine = new MatchingEngine(config);
        this.events = data.events();
        this.appender = events.createAppender();
        this.random = new SplittableRandom(seed);
        this.halted = new boolean[config.symbols().size()];
        long reference = 0;
        for (final long account : ACCOUNTS) {
            for (final AssetSpec asset : config.assets()) {
                command.money(CommandType.DEPOSIT, account, asset.id(), FUNDS, ++reference);
                applyAndAppend();
                if (result.isRejected()) {
                    throw new IllegalStateException("deposit of " + asset.code() + " for account " + account + ": " + result);
                }
            }
        }
    }

    /** Writes {@code count} events at about {@code perSecond} (0: as fast as it can). */
    void write(final int count, final long perSecond) {
        final long start = System.nanoTime();
        final long startCount = written;
        for (int i = 0; i < count; i++) {
            next();
            applyAndAppend();
            if (perSecond > 0 && (i & 127) == 127) {
                // Pacing the load (not waiting for anything): stay at the asked rate.
                final long due = start + (written - startCount) * 1_000_000_000L / perSecond;
                final long ahead = due - System.nanoTime();
                if (ahead > 0) {
                    LockSupport.parkNanos(ahead);
                }
            }
        }
    }

    /** The command through the engine, its result appended as the engine process appends it. */
    private void applyAndAppend() {
        engine.apply(command, result);
        header.commandIndex = commandIndex++;
        try (DocumentContext dc = appender.writingDocument()) {
            header.hops.engineAppendNanos = System.nanoTime();
            EventCodec.write(dc.wire().bytes(), header, result);
        }
        written++;
        lastIndex = appender.lastIndexAppended();
    }

    private void next() {
        final int draw = random.nextInt(1000);
        final int slot = random.nextInt(config.symbols().size());
        final SymbolSpec symbol = config.symbols().get(slot);
        if (draw < 2) {
            command.symbolCommand(halted[slot] ? CommandType.RESUME : CommandType.HALT, symbol.id());
            halted[slot] = !halted[slot];
            return;
        }
        final int account = random.nextInt(ACCOUNTS.length);
        if (draw < 200 && nextClientOrderId[account] > 0) {
            command.cancel(ACCOUNTS[account], 1 + random.nextLong(nextClientOrderId[account]));
            return;
        }
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final long reference = symbol.referencePrice();
        final long spread = Math.max(1, reference / 100);
        // Buyers mostly below the reference and sellers above, with an overlap so that some orders trade.
        final long offset = random.nextLong(spread) - spread / 5;
        final long price = side == Side.BUY ? reference - offset : reference + offset;
        command.limit(ACCOUNTS[account], symbol.id(), ++nextClientOrderId[account], side, price, 1 + random.nextInt(100));
    }

    /** The last events index written (also after close). */
    long lastIndex() {
        return lastIndex;
    }

    long written() {
        return written;
    }

    /** Whether the symbol is halted now, as the engine has it. */
    boolean halted(final int slot) {
        return halted[slot];
    }

    /** The engine's book of a symbol, in the form the tests compare. */
    String book(final int symbol) {
        final StringBuilder sb = new StringBuilder();
        for (final Side side : Side.values()) {
            for (int depth = 0; depth < engine.levelCount(symbol, side); depth++) {
                sb.append(side).append(' ').append(engine.levelPrice(symbol, side, depth)).append('x')
                    .append(engine.levelQuantity(symbol, side, depth)).append('/').append(engine.levelOrderCount(symbol, side, depth))
                    .append('\n');
            }
        }
        return sb.toString();
    }

    /** What bin/audit book's RESULT line says of the symbol now, up to its orders counts (bin/md-client adds the rest). */
    String resultLine(final SymbolSpec symbol) {
        final int id = symbol.id();
        final boolean bids = engine.levelCount(id, Side.BUY) > 0;
        final boolean asks = engine.levelCount(id, Side.SELL) > 0;
        return "RESULT symbol=" + symbol.name() + " best_bid=" + (bids ? symbol.formatPrice(engine.levelPrice(id, Side.BUY, 0)) : "-")
            + " best_ask=" + (asks ? symbol.formatPrice(engine.levelPrice(id, Side.SELL, 0)) : "-")
            + " bid_levels=" + engine.levelCount(id, Side.BUY) + " ask_levels=" + engine.levelCount(id, Side.SELL)
            + " bid_orders=" + orders(id, Side.BUY) + " ask_orders=" + orders(id, Side.SELL);
    }

    private long orders(final int symbol, final Side side) {
        long total = 0;
        for (int depth = 0; depth < engine.levelCount(symbol, side); depth++) {
            total += engine.levelOrderCount(symbol, side, depth);
        }
        return total;
    }

    EngineConfig config() {
        return config;
    }

    @Override
    public void close() {
        appender.close();
        events.close();
    }
}
