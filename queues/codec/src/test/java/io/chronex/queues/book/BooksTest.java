package io.chronex.queues.book;

import io.chronex.api.LevelChange;
import io.chronex.api.Side;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Books' sorted arrays against tree maps fed the same level changes: every level, best first, in every symbol. */
class BooksTest {
    @Test
    void levelsMatchATreeMapReferenceUnderRandomChanges() {
        final Random random = new Random(11);
        final Books books = new Books();
        // symbol -> side -> price -> {quantity, orders}
        final Map<Integer, Map<Side, NavigableMap<Long, long[]>>> reference = new TreeMap<>();
        final int[] symbolIds = {40_000, 7, 300};
        final LevelChange change = new LevelChange();
        for (int i = 0; i < 50_000; i++) {
            change.symbol = symbolIds[random.nextInt(symbolIds.length)];
            change.side = random.nextBoolean() ? Side.BUY : Side.SELL;
            // Around 200 prices per side, so sides grow well past the arrays' first capacity and shrink again.
            change.price = 1_000 + random.nextInt(200);
            change.quantity = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(1_000);
            change.orderCount = change.quantity == 0 ? 0 : 1 + random.nextInt(20);
            final int done = books.apply(change);
            final NavigableMap<Long, long[]> side = reference.computeIfAbsent(change.symbol, s -> new TreeMap<>())
                .computeIfAbsent(change.side, s -> new TreeMap<>());
            final boolean was = side.containsKey(change.price);
            assertEquals(change.quantity == 0 ? (was ? Books.REMOVED : Books.NONE) : (was ? Books.CHANGED : Books.ADDED), done);
            final Books.Levels levels = books.book(change.symbol).levels(change.side);
            final int rank = levels.rankOf(change.price);
            if (change.quantity == 0) {
                assertEquals(-1, rank);
            } else {
                assertEquals(change.price, levels.price(rank));
                assertEquals(change.quantity, levels.quantity(rank));
            }
            if (change.quantity == 0) {
                side.remove(change.price);
            } else {
                side.put(change.price, new long[] {change.quantity, change.orderCount});
            }
            if (i % 997 == 0) {
                assertSame(reference, books);
            }
        }
        assertSame(reference, books);
        assertArrayEquals(new int[] {7, 300, 40_000}, books.symbols());
        assertNull(books.book(8));
    }

    @Test
    void aRankOutsideTheSideIsRefused() {
        final Books books = new Books();
        final LevelChange change = new LevelChange();
        change.symbol = 1;
        change.side = Side.BUY;
        change.price = 10;
        change.quantity = 5;
        change.orderCount = 1;
        books.apply(change);
        assertEquals(10, books.book(1).levels(Side.BUY).price(0));
        assertThrows(IndexOutOfBoundsException.class, () -> books.book(1).levels(Side.BUY).price(1));
        assertThrows(IndexOutOfBoundsException.class, () -> books.book(1).levels(Side.SELL).quantity(0));
    }

    private static void assertSame(final Map<Integer, Map<Side, NavigableMap<Long, long[]>>> reference, final Books books) {
        for (final Map.Entry<Integer, Map<Side, NavigableMap<Long, long[]>>> symbol : reference.entrySet()) {
            for (final Side side : Side.values()) {
                final NavigableMap<Long, long[]> expected = symbol.getValue().getOrDefault(side, new TreeMap<>());
                final Books.Levels levels = books.book(symbol.getKey()).levels(side);
                assertEquals(expected.size(), levels.size(), symbol.getKey() + " " + side);
                final NavigableMap<Long, long[]> bestFirst = side == Side.BUY ? expected.descendingMap() : expected;
                final Iterator<Map.Entry<Long, long[]>> best = bestFirst.entrySet().iterator();
                for (int rank = 0; rank < levels.size(); rank++) {
                    final Map.Entry<Long, long[]> e = best.next();
                    assertEquals(e.getKey(), levels.price(rank), "price at rank " + rank);
                    assertEquals(e.getValue()[0], levels.quantity(rank), "quantity at rank " + rank);
                    assertEquals(e.getValue()[1], levels.orders(rank), "orders at rank " + rank);
                }
            }
        }
    }
}
