package io.chronex.replay;

import io.chronex.api.Command;
import io.chronex.api.Side;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** journal-compare: equal journals are identical; a changed byte, a missing tail or a missing directory is said. */
class JournalCompareTest {
    @TempDir
    Path tmp;

    /** A journal of {@code count} limit orders; the order {@code changed} (1-based, 0 none) has price 101 instead of 100. */
    private Path journal(final String name, final int count, final int changed) {
        final Path dir = tmp.resolve(name);
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 1; i <= count; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    final long price = i == changed ? 101 : 100;
                    final Hops hops = new Hops();
                    hops.gatewayReadNanos = i;
                    CommandCodec.write(dc.wire().bytes(), new Command().limit(1, 7, i, Side.BUY, price, 1), hops);
                }
            }
        }
        return dir;
    }

    @Test
    void equalJournalsAreIdentical() {
        final JournalCompare.Comparison same = JournalCompare.compare(List.of(journal("a", 5, 0), journal("b", 5, 0), journal("c", 5, 0)));
        assertTrue(same.identical(), same.resultLine());
        assertArrayEquals(new long[] {5, 5, 5}, same.excerpts());
        assertEquals("RESULT directories=3 identical=yes excerpts=5 first_difference=-", same.resultLine());
        assertEquals(0, JournalCompare.exitCode(new String[] {tmp.resolve("a").toString(), tmp.resolve("b").toString()}));
    }

    @Test
    void aChangedCommandOrAShorterJournalIsTheFirstDifference() {
        final Path a = journal("a", 5, 0);
        final JournalCompare.Comparison changed = JournalCompare.compare(List.of(a, journal("b", 5, 3)));
        assertFalse(changed.identical());
        assertEquals(3, changed.firstDifference(), changed.difference());
        assertEquals("RESULT directories=2 identical=no excerpts=5 first_difference=3", changed.resultLine());

        final JournalCompare.Comparison shorter = JournalCompare.compare(List.of(a, journal("c", 4, 0)));
        assertEquals(5, shorter.firstDifference(), shorter.difference());
        assertArrayEquals(new long[] {5, 4}, shorter.excerpts());
        assertTrue(shorter.difference().contains("(journal ended)"), shorter.difference());
        assertEquals(1, JournalCompare.exitCode(new String[] {a.toString(), tmp.resolve("c").toString()}));
    }

    @Test
    void aMistypedDirectoryOrOneDirectoryIsAUsageError() {
        final Path a = journal("a", 1, 0);
        assertEquals(2, JournalCompare.exitCode(new String[] {a.toString()}));
        assertEquals(2, JournalCompare.exitCode(new String[] {a.toString(), tmp.resolve("no-such-dir").toString()}));
        assertFalse(java.nio.file.Files.exists(tmp.resolve("no-such-dir")));
    }
}
