package io.chronex.engine;

import io.chronex.api.Side;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The paged price ladder agrees with a TreeMap on find, best and order, across pages and price ranges. */
class BookSideTest {
    @ParameterizedTest
    @EnumSource(Side.class)
    void ladderAgreesWithASortedMapUnderRandomInsertsAndRemoves(final Side side) {
        for (final long unit : new long[]{1, 5}) {
            final SplittableRandom random = new SplittableRandom(side.ordinal() * 31 + unit);
            final BookSide ladder = new BookSide(side, unit);
            final NavigableMap<Long, PriceLevel> expected = side == Side.BUY ? new TreeMap<Long, PriceLevel>().descendingMap()
                : new TreeMap<>();
            for (int step = 0; step < 200_000; step++) {
                final long price = unit * randomPrice(random);
                final PriceLevel present = expected.get(price);
                assertSame(present, ladder.find(price));
                if (present == null) {
                    final PriceLevel level = new PriceLevel();
                    level.price = price;
                    level.side = side;
                    ladder.insert(level);
                    expected.put(price, level);
                } else {
                    ladder.remove(present);
                    expected.remove(price);
                }
                assertEquals(expected.size(), ladder.count());
                assertSame(expected.isEmpty() ? null : expected.firstEntry().getValue(), ladder.best());
                if (step % 5_000 == 0) {
                    assertEquals(new ArrayList<>(expected.keySet()), walk(ladder));
                }
            }
            assertEquals(new ArrayList<>(expected.keySet()), walk(ladder));
            for (final PriceLevel level : new ArrayList<>(expected.values())) {
                ladder.remove(level);
            }
            assertNull(ladder.best());
            assertEquals(0, ladder.count());
        }
    }

    /** Mostly a dense cluster (several pages), sometimes far away (a page of its own), sometimes huge. */
    private static long randomPrice(final SplittableRandom random) {
        final int kind = random.nextInt(100);
        if (kind < 90) {
            return 10_000 + random.nextInt(4 * BookSide.PAGE_SIZE);
        }
        if (kind < 98) {
            return 1 + random.nextInt(200_000);
        }
        return 1 + random.nextLong(100_000_000_000_000L);
    }

    private static List<Long> walk(final BookSide ladder) {
        final List<Long> prices = new ArrayList<>();
        for (PriceLevel level = ladder.best(); level != null; level = ladder.worseThan(level)) {
            prices.add(level.price);
        }
        return prices;
    }
}
