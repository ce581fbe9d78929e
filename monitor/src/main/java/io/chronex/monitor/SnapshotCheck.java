package io.chronex.monitor;

import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.book.Books;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.Supplier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Checks the books the monitor rebuilds from the events' level changes against the engine's own
 * state in its snapshots ({@code D/snapshots/snapshot-<journal index>.bin}, the state after that
 * command): a second reader of the events, with books of its own, that stops at the snapshot's
 * command and compares every level of every symbol. A difference means the level changes in the
 * events do not describe the book, which every reader of market data relies on. The snapshot files
 * are only read; the tail moves forward only, so a whole run costs one more pass over the events.
 */
final class SnapshotCheck implements EventTail.Handler {
    /** The last check: which snapshot, and "equal ..." or what differed (or why it could not be checked). */
    record Outcome(long journalIndex, boolean equal, String detail) {
    }

    private final Path dir;
    private final EventTail tail;
    /** What a snapshot must agree with, asked at each look: the commands journal may be opened after the events. */
    private final Supplier<SnapshotFiles.Expect> expect;
    private final Books books = new Books();
    /** The snapshot being waited for: its command's journal index and the engine state it holds. */
    private long target = -1;
    private MatchingEngine expected;
    /** The last events' command index this reader applied. */
    private long position = -1;
    private Outcome last;
    private long checked;
    private long differed;
    /** The books start from the snapshot at this journal index (the days before it archived); earlier changes are in it. */
    private long booksFrom = -1;

    /**
     * {@code expect} says what each snapshot must agree with besides its name: the data directory's pinned configuration
     * hash and the commands journal where the monitor has them ({@link #pinned}).
     */
    SnapshotCheck(final Path snapshotsDir, final EventTail tail, final Supplier<SnapshotFiles.Expect> expect) {
        this.dir = snapshotsDir;
        this.tail = tail;
        this.expect = expect;
    }

    /** What the monitor can check a snapshot against: the configuration hash the engine pinned, and the journal if open. */
    static SnapshotFiles.Expect pinned(final Path snapshotsDir, final SingleChronicleQueue commands) {
        return new SnapshotFiles.Expect(SnapshotFiles.pinnedConfigHash(snapshotsDir), commands);
    }

    /**
     * Looks for a snapshot newer than the last one checked and not yet passed, and makes it the
     * target. Once per interval: it lists a directory. A snapshot the reader has already passed
     * (found late) cannot be checked by this forward-only reader and is said so.
     */
    void look() {
        if (target >= 0 || !Files.isDirectory(dir)) {
            return;
        }
        final List<Long> indices;
        try {
            indices = SnapshotFiles.indices(dir);
        } catch (final UncheckedIOException e) {
            return; // listed again at the next interval
        }
        final Long newest = indices.isEmpty() ? null : indices.get(0);
        if (newest == null || (last != null && newest <= last.journalIndex())) {
            return;
        }
        if (newest <= position) {
            last = new Outcome(newest, true, "not checked: this reader had passed its command when it appeared");
            return;
        }
        final Path file = dir.resolve(SnapshotFiles.name(newest));
        try {
            expected = MatchingEngine.restore(SnapshotFiles.read(file, expect.get()));
            target = newest;
        } catch (final IOException | RuntimeException e) {
            // A file the engine is still renaming, one a disk damaged, renamed or from another journal: said, never fatal.
            last = new Outcome(newest, true, "not checked: " + file.getFileName() + " unreadable (" + e.getMessage() + ")");
        } catch (final OutOfMemoryError e) {
            // The restored engine did not fit: nothing else holds what was being built, so the monitor carries on without it.
            expected = null;
            last = new Outcome(newest, true, "not checked: " + file.getFileName() + " does not fit this monitor's heap (raise -Xmx in"
                + " JAVA_OPTS)");
        }
    }

    /** Reads up to {@code limit} events while a snapshot is waited for; returns how many. */
    int poll(final int limit) {
        return target < 0 ? 0 : tail.poll(this, limit);
    }

    /**
     * The books as a snapshot holds them, for a data directory whose first days are archived: the events left begin part
     * way, so the check starts from that snapshot (which it does not count as checked) and checks the ones after it.
     */
    void booksFrom(final long journalIndex, final Books seeded) {
        booksFrom = journalIndex;
        books.copyFrom(seeded);
        last = new Outcome(journalIndex, true, "not checked: the journal's days before it are archived, so the books start from"
            + " this snapshot; the next ones are checked");
    }

    /** A restored engine's books: every symbol, both sides, every level. */
    static Books booksOf(final MatchingEngine engine) {
        final Books books = new Books();
        for (final int symbol : engine.symbolIds()) {
            for (final Side side : Side.values()) {
                for (int depth = 0; depth < engine.levelCount(symbol, side); depth++) {
                    books.bookOrNew(symbol).levels(side).apply(engine.levelPrice(symbol, side, depth),
                        engine.levelQuantity(symbol, side, depth), engine.levelOrderCount(symbol, side, depth));
                }
            }
        }
        return books;
    }

    @Override
    public void onEvent(final long eventsIndex, final EventHeader header, final Result result) {
        if (header.commandIndex > booksFrom) {
            for (int i = 0; i < result.levelChangeCount(); i++) {
                final LevelChange change = result.levelChange(i);
                books.apply(change);
            }
        }
        position = header.commandIndex;
        if (target >= 0 && header.commandIndex >= target) {
            last = header.commandIndex == target ? compare() : new Outcome(target, false,
                "the events have no result for journal index 0x" + Long.toHexString(target) + " (next: 0x"
                    + Long.toHexString(header.commandIndex) + ")");
            checked++;
            differed += last.equal() ? 0 : 1;
            target = -1;
            expected = null;
        }
    }

    /** Every symbol of the engine and of the events, every level, both sides; the first difference is the detail. */
    private Outcome compare() {
        final int[] engineSymbols = expected.symbolIds();
        final TreeSet<Integer> symbols = new TreeSet<>();
        for (final int id : books.symbols()) {
            symbols.add(id);
        }
        for (final int id : engineSymbols) {
            symbols.add(id);
        }
        long levels = 0;
        for (final int symbol : symbols) {
            for (final Side side : Side.values()) {
                final Books.Book book = books.book(symbol);
                final int rebuilt = book == null ? 0 : book.levels(side).size();
                final int count = Arrays.binarySearch(engineSymbols, symbol) >= 0 ? expected.levelCount(symbol, side) : 0;
                if (count != rebuilt) {
                    return different(symbol, side, count + " levels in the snapshot, " + rebuilt + " from the events");
                }
                for (int depth = 0; depth < rebuilt; depth++) {
                    final Books.Levels level = book.levels(side);
                    final long price = expected.levelPrice(symbol, side, depth);
                    final long quantity = expected.levelQuantity(symbol, side, depth);
                    final int orders = expected.levelOrderCount(symbol, side, depth);
                    if (price != level.price(depth) || quantity != level.quantity(depth) || orders != level.orders(depth)) {
                        return different(symbol, side, "level " + depth + ": snapshot " + quantity + "@" + price + " (" + orders
                            + " orders), events " + level.quantity(depth) + "@" + level.price(depth) + " (" + level.orders(depth)
                            + " orders)");
                    }
                    levels++;
                }
            }
        }
        return new Outcome(target, true, "equal (" + symbols.size() + " symbols, " + levels + " levels)");
    }

    private Outcome different(final int symbol, final Side side, final String what) {
        return new Outcome(target, false, "DIFFERENT at symbol " + symbol + " " + (side == Side.BUY ? "bid" : "ask") + ": " + what);
    }

    /** The last outcome, or null before any snapshot was checked. */
    Outcome last() {
        return last;
    }

    long checked() {
        return checked;
    }

    long differed() {
        return differed;
    }
}
