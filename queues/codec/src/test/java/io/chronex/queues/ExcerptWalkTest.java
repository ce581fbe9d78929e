package io.chronex.queues;

import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walk reads in place what Chronicle's tailer would hand out, one by one: across chunk boundaries,
 * index pages, excerpts of odd lengths and a day's roll, and on from where it stopped once more is written.
 */
class ExcerptWalkTest {
    @TempDir
    Path tmp;

    private final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T23:00:00Z"));

    /**
     * A small block size, so that a few MB of excerpts span many mapped chunks, and a daily cycle with small index
     * pages (128 entries, one every 8 excerpts), so that Chronicle writes one among the excerpts every 1,024 of them.
     */
    private SingleChronicleQueue open() {
        return SingleChronicleQueueBuilder.single(tmp.resolve("q").toFile()).rollCycle(TestRollCycles.TEST8_DAILY).blockSize(256 << 10)
            .timeProvider(clock).build();
    }

    /** Appends {@code count} excerpts of 1 to 300 bytes, each's bytes derived from its number; returns their indexes. */
    private static List<Long> append(final SingleChronicleQueue queue, final int from, final int count) {
        final List<Long> indexes = new ArrayList<>();
        final ExcerptAppender appender = queue.createAppender();
        for (int i = from; i < from + count; i++) {
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().write(content(i));
            }
            indexes.add(appender.lastIndexAppended());
        }
        return indexes;
    }

    private static byte[] content(final int i) {
        final byte[] b = new byte[1 + new SplittableRandom(i).nextInt(300)];
        new SplittableRandom(i * 31L).nextBytes(b);
        return b;
    }

    private static byte[] current(final ExcerptWalk walk) {
        final byte[] b = new byte[walk.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = walk.in().readByte(walk.offset() + i);
        }
        return b;
    }

    @Test
    void aWalkReadsWhatTheTailerReadsMostlyInPlaceAcrossChunksAndADaysRoll() {
        try (SingleChronicleQueue queue = open()) {
            final List<Long> indexes = append(queue, 0, 30_000);
            clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
            indexes.addAll(append(queue, 30_000, 10_000));
            assertTrue(indexes.get(30_000) - indexes.get(29_999) != 1, "a second cycle file: indexes jump");
            try (ExcerptWalk walk = new ExcerptWalk(queue.createTailer())) {
                for (int i = 0; i < indexes.size(); i++) {
                    assertTrue(walk.next(), "excerpt " + i);
                    assertEquals((long) indexes.get(i), walk.index(), "index of excerpt " + i);
                    assertArrayEquals(content(i), current(walk), "bytes of excerpt " + i);
                }
                assertFalse(walk.next(), "nothing after the last");
                // The point of the class: nearly all read in place.
                assertTrue(walk.readInPlace() > indexes.size() * 9L / 10, "read in place: " + walk.readInPlace());

                // A writer goes on: the walk goes on from where it stopped.
                indexes.addAll(append(queue, 40_000, 500));
                for (int i = 40_000; i < 40_500; i++) {
                    assertTrue(walk.next(), "excerpt " + i);
                    assertEquals((long) indexes.get(i), walk.index());
                    assertArrayEquals(content(i), current(walk));
                }
                assertFalse(walk.next());
            }
        }
    }

    @Test
    void aWalkMovedToAnIndexGoesOnFromThere() {
        try (SingleChronicleQueue queue = open()) {
            final List<Long> indexes = append(queue, 0, 20_000);
            try (ExcerptWalk walk = new ExcerptWalk(queue.createTailer())) {
                for (int i = 0; i < 7_000; i++) {
                    assertTrue(walk.next());
                }
                for (final int target : new int[] {12_345, 3, 19_999, 6_999}) {
                    assertTrue(walk.moveToIndex(indexes.get(target)));
                    for (int i = target; i < Math.min(target + 3_000, indexes.size()); i++) {
                        assertTrue(walk.next(), "excerpt " + i + " after moving to " + target);
                        assertEquals((long) indexes.get(i), walk.index());
                        assertArrayEquals(content(i), current(walk));
                    }
                }
                // No such index: refused, and the walk goes on where it was.
                final long at = walk.index();
                assertFalse(walk.moveToIndex(indexes.get(19_999) + 1_000));
                assertTrue(walk.next());
                assertEquals(at + 1, walk.index());
            }
        }
    }

    @Test
    void aWalkStartsWhereItsTailerStands() {
        try (SingleChronicleQueue queue = open()) {
            final List<Long> indexes = append(queue, 0, 5_000);
            final ExcerptTailer tailer = queue.createTailer();
            assertTrue(tailer.moveToIndex(indexes.get(4_000)));
            try (ExcerptWalk walk = new ExcerptWalk(tailer)) {
                assertTrue(walk.next());
                assertEquals((long) indexes.get(4_000), walk.index());
                assertArrayEquals(content(4_000), current(walk));
            }
        }
    }
}
