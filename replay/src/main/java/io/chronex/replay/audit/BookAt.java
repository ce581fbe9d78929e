package io.chronex.replay.audit;

import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.ConfigChange;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.Hops;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.TimeSeek;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * bin/audit book: a symbol's book as it was after a given command of the journal, rebuilt by the
 * engine itself: the newest snapshot taken at or before that command, then the journal replayed
 * from there to it, exactly as the engine process applies commands (one that does not decode
 * changes nothing). Every level, best first, with its quantity and number of orders, and on request
 * every resting order with its place in its level's queue.
 */
public final class BookAt {
    /** Where the rebuild stopped: the journal index of the last command applied and how many commands that is. */
    record Point(long journalIndex, long commands, long receiptEpochNanos) {
    }

    private final EngineConfig config;
    private final JournalConfig journalConfig;
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final Result result = new Result();

    /** Rebuilds from {@code config}, the configuration the history starts under, following the journal's records. */
    BookAt(final EngineConfig config, final JournalConfig journalConfig) {
        this.config = config;
        this.journalConfig = journalConfig;
    }

    /**
     * The journal position after its first {@code count} commands, or, with {@code atEpochNanos}
     * (not -1), after the last command received at or before that wall-clock time; null when the
     * journal has fewer commands or none that early.
     */
    static Point find(final DataDirectory data, final long count, final long atEpochNanos) {
        final Hops hops = new Hops();
        final Command command = new Command();
        Point found = null;
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            long n = 0;
            if (atEpochNanos >= 0) {
                // Near the time by binary search over the journal's index, then on command by command; n counts what was skipped.
                final long start = TimeSeek.firstAtOrAfter(commands, tailer, atEpochNanos - TimeSeek.SLACK_NANOS, TimeSeek.commands());
                final long first = commands.firstIndex();
                if (start > first) {
                    final long before = commands.countExcerpts(first, start);
                    tailer.moveToIndex(start);
                    // The command just before the start, so that a time before every command after it still finds it.
                    n = before;
                    found = previous(commands, start, n);
                } else {
                    tailer.toStart();
                }
                if (start < 0) {
                    tailer.toEnd();
                }
            }
            try (ExcerptWalk walk = new ExcerptWalk(tailer)) {
                long lastIndex = found == null ? -1 : found.journalIndex();
                long lastReceipt = found == null ? 0 : found.receiptEpochNanos();
                while ((atEpochNanos >= 0 || n < count) && walk.next()) {
                    hops.clear();
                    final boolean decoded = CommandCodec.readAt(walk.in(), walk.offset(), walk.length(), command, hops) == DecodeStatus.OK;
                    if (!decoded && ConfigRecord.is(walk.in(), walk.offset(), walk.length())) {
                        continue; // a configuration record: not a command, and it has no receipt time
                    }
                    // An excerpt that does not decode has no receipt time to trust: it counts, it does not end the search.
                    if (atEpochNanos >= 0 && decoded && hops.receiptEpochNanos > atEpochNanos) {
                        break; // receipt times rise with the journal: this one and every later one came after
                    }
                    n++;
                    lastIndex = walk.index();
                    lastReceipt = hops.receiptEpochNanos;
                }
                if (lastIndex >= 0 && (found == null || found.journalIndex() != lastIndex)) {
                    found = new Point(lastIndex, n, lastReceipt);
                }
            }
            return atEpochNanos < 0 && (found == null || found.commands() < count) ? null : found;
        }
    }

    /** The command before journal index {@code index}, the {@code n}-th of the journal. */
    private static Point previous(final SingleChronicleQueue commands, final long index, final long n) {
        final ExcerptTailer back = commands.createTailer().direction(net.openhft.chronicle.queue.TailerDirection.BACKWARD);
        if (!back.moveToIndex(index)) {
            return null;
        }
        try (DocumentContext self = back.readingDocument()) {
            if (!self.isPresent()) { // the excerpt at index itself: the backward tailer reads it first
                return null;
            }
        }
        final Hops hops = new Hops();
        try (DocumentContext dc = back.readingDocument()) {
            if (!dc.isPresent()) {
                return null;
            }
            CommandCodec.read(dc.wire().bytes(), new Command(), hops);
            return new Point(dc.index(), n, hops.receiptEpochNanos);
        }
    }

    /** The engine's state after the command at {@code point}: from the newest usable snapshot at or before it, then replay. */
    MatchingEngine rebuild(final DataDirectory data, final Point point, final PrintStream out) {
        final KeptSnapshots saver = new KeptSnapshots(data, config, out);
        // A snapshot kept every this many commands replayed (-Dchronex.audit.snapshotEvery=N for tests), so that the next
        // rebuild near there replays at most as many.
        final long keepEvery = Math.max(1, Long.getLong("chronex.audit.snapshotEvery", 100_000));
        final Path own = saver.dir();
        final SnapshotFiles.Restored<MatchingEngine> snapshot;
        final boolean fromOurs;
        MatchingEngine engine;
        final long from;
        long replayed = 0;
        try (SingleChronicleQueue commands = data.commands()) {
            final SnapshotFiles.Expect expect = new SnapshotFiles.Expect(MatchingEngine.configHash(config), commands);
            final SnapshotFiles.Restored<MatchingEngine> engines = SnapshotFiles.newestUpTo(data.snapshots(), point.journalIndex(),
                MatchingEngine::restore, expect, warning -> out.println("note: " + warning));
            final SnapshotFiles.Restored<MatchingEngine> ours = SnapshotFiles.newestUpTo(own, point.journalIndex(),
                MatchingEngine::restore, expect, warning -> out.println("note: " + warning));
            snapshot = ours == null || engines != null && engines.journalIndex() >= ours.journalIndex() ? engines : ours;
            fromOurs = snapshot != null && snapshot == ours;
            engine = snapshot == null ? new MatchingEngine(config) : snapshot.state();
            from = snapshot == null ? -1 : snapshot.journalIndex();
            final JournalConfig.Entry taken = journalConfig.takenThrough(from);
            final JournalConfig.Follower follower = new JournalConfig.Follower(taken == null ? null : taken.config());
            final ExcerptTailer tailer = commands.createTailer();
            if (from >= 0 && !tailer.moveToIndex(from + 1) && !tailer.moveToIndex(from)) {
                throw new IllegalStateException("the journal has no command at the snapshot's index 0x" + Long.toHexString(from));
            }
            try (ExcerptWalk walk = new ExcerptWalk(tailer)) {
                while (walk.next() && walk.index() <= point.journalIndex()) {
                    if (walk.index() <= from) {
                        continue; // moveToIndex(from) when from + 1 was in the next cycle: the snapshot's own command
                    }
                    hops.clear();
                    if (CommandCodec.readAt(walk.in(), walk.offset(), walk.length(), command, hops) == DecodeStatus.OK) {
                        engine.apply(command, result);
                    } else if (ConfigRecord.is(walk.in(), walk.offset(), walk.length())) {
                        final ConfigChange change = follower.answer(walk.in(), walk.offset(), walk.length(), walk.index(), result);
                        engine = change == null ? engine : engine.reconfigured(change);
                    }
                    replayed++;
                    if (replayed % keepEvery == 0) {
                        saver.save(walk.index(), engine, SnapshotEnvelope.fingerprint(walk.in(), walk.offset(), walk.length()), out);
                    }
                }
            }
        }
        out.printf("rebuilt from %s, then %,d commands replayed%s%n", from < 0 ? "the configuration (no snapshot at or before it)"
            : (fromOurs ? own.getFileName() + "/" : "") + SnapshotFiles.name(from), replayed,
            saver.saved() == 0 ? "" : " (" + saver.saved() + " snapshots kept in " + own + " for the next rebuild)");
        return engine;
    }

    /** Prints every level (or the best {@code depth}) of both sides and the RESULT line. */
    public static void print(final MatchingEngine engine, final SymbolSpec symbol, final int depth, final PrintStream out) {
        print(engine, symbol, depth, false, out);
    }

    /**
     * Prints every level (or the best {@code depth}) of both sides, with {@code orders} each level's resting orders
     * in queue order under it (position 1 trades first), then the RESULT line.
     */
    public static void print(final MatchingEngine engine, final SymbolSpec symbol, final int depth, final boolean orders,
                             final PrintStream out) {
        final long[] orderCounts = new long[2];
        out.printf("%-6s %12s %12s %8s%n", "side", "price", "quantity", "orders");
        for (final Side side : new Side[] {Side.SELL, Side.BUY}) {
            final int levels = engine.levelCount(symbol.id(), side);
            // Asks printed worst first down to the best, then bids best first, so the spread sits in the middle.
            for (int i = 0; i < levels; i++) {
                final int at = side == Side.SELL ? levels - 1 - i : i;
                orderCounts[side.ordinal()] += engine.levelOrderCount(symbol.id(), side, at);
                if (at < depth) {
                    out.printf("%-6s %12s %12d %8d%n", side == Side.SELL ? "ask" : "bid",
                        symbol.formatPrice(engine.levelPrice(symbol.id(), side, at)), engine.levelQuantity(symbol.id(), side, at),
                        engine.levelOrderCount(symbol.id(), side, at));
                    if (orders) {
                        engine.forEachOrderAt(symbol.id(), side, at, (position, orderId, account, clOrdId, leaves, cumulative, tif) ->
                            out.printf("       #%-4d order %d  account %d  clOrdId %d  leaves %d  cum %d  %s%n", position, orderId,
                                account, clOrdId, leaves, cumulative, tif));
                    }
                }
            }
        }
        final boolean bids = engine.levelCount(symbol.id(), Side.BUY) > 0;
        final boolean asks = engine.levelCount(symbol.id(), Side.SELL) > 0;
        out.printf(Locale.ROOT, "RESULT symbol=%s best_bid=%s best_ask=%s bid_levels=%d ask_levels=%d bid_orders=%d ask_orders=%d%n",
            symbol.name(), bids ? symbol.formatPrice(engine.levelPrice(symbol.id(), Side.BUY, 0)) : "-",
            asks ? symbol.formatPrice(engine.levelPrice(symbol.id(), Side.SELL, 0)) : "-", engine.levelCount(symbol.id(), Side.BUY),
            engine.levelCount(symbol.id(), Side.SELL), orderCounts[Side.BUY.ordinal()], orderCounts[Side.SELL.ordinal()]);
    }
}
