package io.chronex.marketdata.client;

import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.marketdata.FeedEncoder;
import io.chronex.marketdata.sbe.GroupSizeEncodingEncoder;
import io.chronex.marketdata.sbe.IncrementalEncoder;
import io.chronex.marketdata.sbe.MessageHeaderEncoder;
import io.chronex.queues.book.Books;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's recovery on synthetic streams: a simulated publisher keeps books, sends incrementals and snapshot cycles,
 * and the test decides which messages the client gets, in which order.
 */
class FeedStateTest {
    private static final int[] SYMBOLS = {1, 2, 3};

    /** The publisher's side of the synthetic feed: books, halts, sequence, and encoded messages as byte arrays. */
    private static final class Publisher {
        private final SplittableRandom random;
        private final Books books = new Books();
        private final boolean[] halted = new boolean[SYMBOLS.length + 1];
        private final FeedEncoder encoder = new FeedEncoder();
        private final Result result = new Result();
        private long seq;
        private long index = 0x10_0000_0000L;
        private long tradeId;
        /** The publication's largest message: an incremental bigger than this goes out LEFT_OUT. */
        private int maxLength = Integer.MAX_VALUE;

        Publisher(final long seed) {
            this.random = new SplittableRandom(seed);
            for (final int symbol : SYMBOLS) {
                books.bookOrNew(symbol);
            }
        }

        /** The next incremental: a few level changes, sometimes a trade, now and then a halt or resume. */
        byte[] next() {
            final int symbol = SYMBOLS[random.nextInt(SYMBOLS.length)];
            if (random.nextInt(50) == 0) {
                result.begin(halted[symbol] ? CommandType.RESUME : CommandType.HALT);
                halted[symbol] = !halted[symbol];
            } else {
                result.begin(CommandType.NEW_ORDER);
                final int changes = 1 + random.nextInt(3);
                for (int i = 0; i < changes; i++) {
                    final LevelChange change = result.addLevelChange();
                    change.symbol = symbol;
                    change.side = random.nextBoolean() ? Side.BUY : Side.SELL;
                    change.price = change.side == Side.BUY ? 900 + random.nextInt(100) : 1000 + random.nextInt(100);
                    change.quantity = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(500);
                    change.orderCount = change.quantity == 0 ? 0 : 1 + random.nextInt(5);
                    books.apply(change);
                }
                if (random.nextInt(4) == 0) {
                    final Fill fill = result.addFill();
                    fill.tradeId = ++tradeId;
                    fill.price = 1000;
                    fill.quantity = 3;
                    fill.takerSide = Side.BUY;
                }
            }
            result.symbol = symbol;
            seq++;
            index++;
            return copy(encoder.incremental(seq, index, 0, 0, result, maxLength));
        }

        List<byte[]> snapshotCycle() {
            final List<byte[]> cycle = new ArrayList<>();
            for (final int symbol : SYMBOLS) {
                cycle.add(copy(encoder.snapshot(seq, index, symbol, "S" + symbol, 100, SYMBOLS.length, halted[symbol],
                    books.book(symbol), Integer.MAX_VALUE)));
            }
            return cycle;
        }

        byte[] heartbeat() {
            return copy(encoder.heartbeat(seq, index, 0));
        }

        private byte[] copy(final int length) {
            final byte[] bytes = new byte[length];
            encoder.buffer().getBytes(0, bytes);
            return bytes;
        }
    }

    private static void deliver(final FeedState state, final byte[] message) {
        state.onMessage(new UnsafeBuffer(message), 0, message.length);
    }

    private static void assertSameBooks(final Publisher publisher, final FeedState state) {
        for (final int symbol : SYMBOLS) {
            assertEquals(describe(publisher.books, symbol), describe(state.books(), symbol), "symbol " + symbol);
        }
        for (final FeedState.SymbolState symbol : state.symbols()) {
            assertEquals(publisher.halted[symbol.id()], symbol.halted(), "halted " + symbol.name());
        }
        assertEquals(publisher.seq, state.lastSeq());
        assertEquals(Long.toHexString(publisher.index), Long.toHexString(state.lastEventsIndex()));
    }

    static String describe(final Books books, final int symbol) {
        final StringBuilder sb = new StringBuilder();
        final Books.Book book = books.book(symbol);
        for (final Side side : Side.values()) {
            final Books.Levels levels = book == null ? null : book.levels(side);
            for (int rank = 0; levels != null && rank < levels.size(); rank++) {
                sb.append(side).append(' ').append(levels.price(rank)).append('x').append(levels.quantity(rank)).append('/')
                    .append(levels.orders(rank)).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void incrementalsTooBigForOneMessageAreRecoveredFromTheSnapshotsAsIfLost() {
        final Publisher publisher = new Publisher(5);
        // Room for two level changes and a trade: an excerpt with three level changes goes out without them.
        publisher.maxLength = MessageHeaderEncoder.ENCODED_LENGTH + IncrementalEncoder.BLOCK_LENGTH
            + 3 * GroupSizeEncodingEncoder.ENCODED_LENGTH + 2 * IncrementalEncoder.LevelsEncoder.sbeBlockLength()
            + IncrementalEncoder.TradesEncoder.sbeBlockLength();
        final FeedState state = new FeedState(1 << 20);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 3_000; i++) {
            deliver(state, publisher.next());
            if (i % 100 == 99) {
                publisher.snapshotCycle().forEach(m -> deliver(state, m));
            }
        }
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        deliver(state, publisher.heartbeat());
        assertTrue(state.leftOut() > 100, "left out: " + state.leftOut());
        assertTrue(state.synced());
        assertTrue(state.recoveries() > 10, "recoveries: " + state.recoveries());
        assertSameBooks(publisher, state);
    }

    @Test
    void aClientThatGetsEverythingJoinsAtTheFirstSnapshotCycleAndStaysEqual() {
        final Publisher publisher = new Publisher(1);
        final FeedState state = new FeedState(1 << 20);
        for (int i = 0; i < 300; i++) {
            publisher.next();
        }
        for (int i = 0; i < 2_000; i++) {
            deliver(state, publisher.next());
            if (i == 50) {
                publisher.snapshotCycle().forEach(m -> deliver(state, m));
                assertTrue(state.synced());
            }
        }
        deliver(state, publisher.heartbeat());
        assertSameBooks(publisher, state);
        assertEquals(0, state.gaps());
        assertEquals(1, state.recoveries());
    }

    @Test
    void lostIncrementalsAreDetectedAndRecoveredFromTheNextCycle() {
        final Publisher publisher = new Publisher(2);
        final FeedState state = new FeedState(1 << 20);
        final SplittableRandom loss = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            final byte[] message = publisher.next();
            if (loss.nextInt(100) != 0) {
                deliver(state, message);
            }
            if (i % 250 == 0) {
                // Snapshots are taken now but arrive a few incrementals later, and one of them now and then not at all.
                final List<byte[]> cycle = publisher.snapshotCycle();
                for (int j = 0; j < 3; j++) {
                    deliver(state, publisher.next());
                }
                for (final byte[] snapshot : cycle) {
                    if (loss.nextInt(20) != 0) {
                        deliver(state, snapshot);
                    }
                }
            }
        }
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        deliver(state, publisher.heartbeat());
        assertTrue(state.synced());
        assertTrue(state.gaps() > 10, "gaps " + state.gaps());
        assertTrue(state.recoveries() > 10, "recoveries " + state.recoveries());
        assertSameBooks(publisher, state);
    }

    @Test
    void aLossAtTheTailIsSeenOnTheHeartbeat() {
        final Publisher publisher = new Publisher(4);
        final FeedState state = new FeedState(1 << 20);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 100; i++) {
            deliver(state, publisher.next());
        }
        publisher.next();
        deliver(state, publisher.heartbeat());
        assertFalse(state.synced());
        assertEquals(1, state.gaps());
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        assertTrue(state.synced());
        assertSameBooks(publisher, state);
    }

    @Test
    void anOverflowingRecoveryBufferWaitsForALaterCycle() {
        final Publisher publisher = new Publisher(5);
        final FeedState state = new FeedState(4 * 1024);
        for (int i = 0; i < 100; i++) {
            publisher.next();
        }
        final List<byte[]> stale = publisher.snapshotCycle();
        for (int i = 0; i < 1_000; i++) {
            deliver(state, publisher.next());
        }
        stale.forEach(m -> deliver(state, m));
        assertFalse(state.synced());
        assertTrue(state.overflows() > 0);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 10; i++) {
            deliver(state, publisher.next());
        }
        assertTrue(state.synced());
        assertSameBooks(publisher, state);
    }

    @Test
    void aNewNumberingFromAPublisherOnAnotherQueueIsFollowedFromItsSnapshots() {
        final Publisher first = new Publisher(7);
        first.encoder.epoch(11);
        final FeedState state = new FeedState(1 << 20);
        first.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 3_000; i++) {
            deliver(state, first.next());
        }
        assertSameBooks(first, state);
        final Publisher second = new Publisher(8);
        second.encoder.epoch(12);
        for (int i = 0; i < 100; i++) {
            deliver(state, second.next());
        }
        assertFalse(state.synced(), "seq 1..100 of another numbering are neither duplicates nor applied");
        second.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 100; i++) {
            deliver(state, second.next());
        }
        assertTrue(state.synced());
        assertEquals(1, state.epochChanges());
        assertSameBooks(second, state);
    }

    @Test
    void aMessageCutShortIsCountedAndRecoveredFrom() {
        final Publisher publisher = new Publisher(9);
        final FeedState state = new FeedState(1 << 20);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        for (int i = 0; i < 100; i++) {
            deliver(state, publisher.next());
        }
        final byte[] whole = publisher.next();
        state.onMessage(new UnsafeBuffer(whole), 0, whole.length);
        final byte[] cut = java.util.Arrays.copyOf(publisher.next(), 20);
        state.onMessage(new UnsafeBuffer(cut), 0, cut.length);
        assertEquals(1, state.malformed());
        assertFalse(state.synced());
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        deliver(state, publisher.heartbeat());
        assertTrue(state.synced());
        assertSameBooks(publisher, state);
    }

    @Test
    void aGarbledIncrementalBufferedWhileRecoveringDoesNotKeepTheClientOutOfSync() {
        final Publisher publisher = new Publisher(13);
        final FeedState state = new FeedState(1 << 20);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        deliver(state, publisher.next());
        publisher.next(); // lost: the next one shows the gap and the client buffers from there
        deliver(state, publisher.next());
        assertFalse(state.synced());
        // A cycle taken now that arrives late, after the incrementals that follow it: its replay includes them.
        final List<byte[]> late = publisher.snapshotCycle();
        // An incremental with a level whose side byte no writer produces: only its sequence is read while it is buffered.
        byte[] garbled = publisher.next();
        final int levelsAt = MessageHeaderEncoder.ENCODED_LENGTH + IncrementalEncoder.BLOCK_LENGTH;
        while (new UnsafeBuffer(garbled).getShort(levelsAt + 2) == 0) {
            deliver(state, garbled);
            garbled = publisher.next();
        }
        garbled[levelsAt + GroupSizeEncodingEncoder.ENCODED_LENGTH + IncrementalEncoder.LevelsEncoder.sideEncodingOffset()] = 7;
        deliver(state, garbled);
        for (int i = 0; i < 20; i++) {
            deliver(state, publisher.next());
        }
        late.forEach(m -> deliver(state, m)); // replaying the garbled one fails: counted, and the buffer is dropped
        assertEquals(1, state.malformed());
        assertFalse(state.synced());
        for (int i = 0; i < 20; i++) {
            deliver(state, publisher.next());
        }
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        deliver(state, publisher.heartbeat());
        assertTrue(state.synced());
        assertSameBooks(publisher, state);
    }

    @Test
    void duplicatesAndSnapshotsWhileInSyncChangeNothing() {
        final Publisher publisher = new Publisher(6);
        final FeedState state = new FeedState(1 << 20);
        publisher.snapshotCycle().forEach(m -> deliver(state, m));
        final List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sent.add(publisher.next());
            deliver(state, sent.get(i));
        }
        final List<byte[]> old = publisher.snapshotCycle();
        sent.subList(400, 500).forEach(m -> deliver(state, m));
        old.forEach(m -> deliver(state, m));
        assertEquals(100, state.duplicates());
        assertEquals(0, state.gaps());
        assertSameBooks(publisher, state);
    }
}
