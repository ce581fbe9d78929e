package io.chronex.replay;

import io.chronex.api.Command;
import io.chronex.api.Side;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
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
        return journal(name, count, changed, 0);
    }

    /** As above, with ClOrdID texts ord-1 .. ord-count; {@code twice} (1-based, 0 none) is written a second time at the end. */
    private Path journal(final String name, final int count, final int changed, final int twice) {
        final Path dir = tmp.resolve(name);
        try (SingleChronicleQueue commands = DataDirectory.open(dir).commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 1; i <= count; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    final long price = i == changed ? 101 : 100;
                    final Hops hops = new Hops();
                    hops.gatewayReadNanos = i;
                    CommandCodec.write(dc.wire().bytes(), new Command().limit(1, 7, i, Side.BUY, price, 1), hops,
                        new CommandText().set("ord-" + i, ""));
                }
            }
            if (twice > 0) {
                try (DocumentContext dc = appender.writingDocument()) {
                    CommandCodec.write(dc.wire().bytes(), new Command().limit(1, 7, twice, Side.BUY, 100, 1), new Hops(),
                        new CommandText().set("ord-" + twice, ""));
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

    /** The orders a client was told were accepted: once in every journal in the same place, or named as missing or repeated. */
    @Test
    void acknowledgedOrdersAreFoundOnceInEveryJournal() throws Exception {
        final Path a = journal("a", 4, 0);
        final Path b = journal("b", 4, 0);
        final JournalCompare.OrderPlaces fine = JournalCompare.orderPlaces(List.of(a, b), 1, List.of("ord-1", "ord-4"));
        assertEquals("orders=2 orders_once=2 orders_missing=0 orders_repeated=0 orders_elsewhere=0", fine.resultFields());
        assertTrue(fine.allOnceInPlace());
        final JournalCompare.OrderPlaces otherAccount = JournalCompare.orderPlaces(List.of(a, b), 2, List.of("ord-1"));
        assertEquals(1, otherAccount.missing(), "an order of account 1 is not account 2's");

        final Path repeated = journal("r", 4, 0, 2);
        final JournalCompare.OrderPlaces twice = JournalCompare.orderPlaces(List.of(a, repeated), 1, List.of("ord-2", "ord-3", "ord-9"));
        assertEquals("orders=3 orders_once=1 orders_missing=1 orders_repeated=1 orders_elsewhere=0", twice.resultFields());
        assertFalse(twice.allOnceInPlace());

        final Path file = java.nio.file.Files.writeString(tmp.resolve("acked.txt"), "ord-1\nord-3\n");
        assertEquals(0, JournalCompare.exitCode(new String[] {a.toString(), b.toString(), "--orders", file.toString(), "--account", "1"}));
        assertEquals(1, JournalCompare.exitCode(new String[] {a.toString(), b.toString(), "--orders", file.toString(), "--account", "5"}));
        assertEquals(2, JournalCompare.exitCode(new String[] {a.toString(), b.toString(), "--orders", file.toString()}));
    }

    @Test
    void aMistypedDirectoryOrOneDirectoryIsAUsageError() {
        final Path a = journal("a", 1, 0);
        assertEquals(2, JournalCompare.exitCode(new String[] {a.toString()}));
        assertEquals(2, JournalCompare.exitCode(new String[] {a.toString(), tmp.resolve("no-such-dir").toString()}));
        assertFalse(java.nio.file.Files.exists(tmp.resolve("no-such-dir")));
    }
}
