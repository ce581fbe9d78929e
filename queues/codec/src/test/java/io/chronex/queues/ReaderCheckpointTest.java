package io.chronex.queues;

import io.chronex.api.LevelChange;
import io.chronex.api.Side;
import io.chronex.queues.book.Books;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A reader's checkpoint reads back whole, is refused when damaged or another reader's, and knows the queues it was taken on. */
class ReaderCheckpointTest {
    @TempDir
    Path tmp;

    @Test
    void readsBackAndRefusesEveryDamage() throws Exception {
        final byte[] body = new byte[3_000];
        new SplittableRandom(3).nextBytes(body);
        final Path file = tmp.resolve(ReaderCheckpoint.FILE);
        assertNull(ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, 1), "no file: no checkpoint");
        final ReaderCheckpoint.Header header = new ReaderCheckpoint.Header(ReaderCheckpoint.GATEWAY, 1, 0x4_0000_0007L,
            0x4_0000_0009L, 11, 12, 1_700_000_000_000L);
        ReaderCheckpoint.write(file, header, body);
        final ReaderCheckpoint.Checkpoint read = ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, 1);
        assertEquals(header, read.header());
        final byte[] back = new byte[read.body().remaining()];
        read.body().get(back);
        assertArrayEquals(body, back);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, 2))
            .getMessage().contains("of gateway 1, not of gateway 2"));
        assertThrows(IllegalArgumentException.class, () -> ReaderCheckpoint.read(file, ReaderCheckpoint.PUBLISHER, 0));
        final byte[] whole = Files.readAllBytes(file);
        final SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 200; i++) {
            final byte[] damaged = whole.clone();
            final int at = random.nextInt(damaged.length);
            damaged[at] ^= (byte) (1 << random.nextInt(8));
            Files.write(file, damaged);
            assertThrows(IllegalArgumentException.class, () -> ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, 1), "bit at " + at);
        }
        for (final int length : new int[] {0, 40, ReaderCheckpoint.HEADER_BYTES, whole.length - 1}) {
            Files.write(file, java.util.Arrays.copyOf(whole, length));
            assertThrows(IllegalArgumentException.class, () -> ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, 1),
                "cut to " + length);
        }
    }

    @Test
    void knowsTheExcerptsItWasTakenOn() {
        try (SingleChronicleQueue commands = SingleChronicleQueueBuilder.single(tmp.resolve("c").toFile())
                 .rollCycle(DataDirectory.ROLL_CYCLE).build();
             SingleChronicleQueue events = SingleChronicleQueueBuilder.single(tmp.resolve("e").toFile())
                 .rollCycle(DataDirectory.ROLL_CYCLE).build();
             SingleChronicleQueue other = SingleChronicleQueueBuilder.single(tmp.resolve("o").toFile())
                 .rollCycle(DataDirectory.ROLL_CYCLE).build()) {
            final long c = append(commands, 1);
            final long e = append(events, 2);
            append(other, 3);
            final ReaderCheckpoint.Header h = ReaderCheckpoint.header(ReaderCheckpoint.GATEWAY, 1, commands, c, events, e, 0);
            assertNull(h.mismatch(commands, events));
            assertTrue(h.mismatch(commands, other).contains("not the one it was read through"), h.mismatch(commands, other));
            final ReaderCheckpoint.Header ahead = new ReaderCheckpoint.Header(1, 1, c + 5, e, h.commandsFingerprint(),
                h.eventsFingerprint(), 0);
            assertTrue(ahead.mismatch(commands, events).contains("has no excerpt"), ahead.mismatch(commands, events));
            assertEquals(ArchivedCycles.cycleOfIndex(e), h.firstCycle());
        }
    }

    @Test
    void booksGoThroughWhole() throws Exception {
        final Books books = new Books();
        final LevelChange change = new LevelChange();
        final SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            change.symbol = 1 + random.nextInt(5);
            change.side = random.nextBoolean() ? Side.BUY : Side.SELL;
            change.price = 100 + random.nextInt(60);
            change.quantity = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(1_000);
            change.orderCount = 1 + random.nextInt(9);
            books.apply(change);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        books.writeTo(new DataOutputStream(bytes));
        final Books back = new Books();
        change.symbol = 9;
        change.side = Side.BUY;
        change.price = 5;
        change.quantity = 5;
        change.orderCount = 1;
        back.apply(change); // gone after the read: readFrom replaces what was there
        back.readFrom(ByteBuffer.wrap(bytes.toByteArray()));
        for (final int symbol : books.symbols()) {
            for (final Side side : Side.values()) {
                final Books.Levels a = books.book(symbol).levels(side);
                final Books.Levels b = back.book(symbol).levels(side);
                assertEquals(a.size(), b.size());
                for (int rank = 0; rank < a.size(); rank++) {
                    assertEquals(a.price(rank), b.price(rank));
                    assertEquals(a.quantity(rank), b.quantity(rank));
                    assertEquals(a.orders(rank), b.orders(rank));
                }
            }
        }
        assertEquals(0, back.book(9).levels(Side.BUY).size());
        assertThrows(IllegalArgumentException.class, () -> back.readFrom(ByteBuffer.wrap(new byte[] {0x7f, 0, 0, 0})));
    }

    private static long append(final SingleChronicleQueue queue, final int value) {
        final ExcerptAppender appender = queue.createAppender();
        try (DocumentContext dc = appender.writingDocument()) {
            dc.wire().bytes().writeInt(value);
        }
        return appender.lastIndexAppended();
    }
}
