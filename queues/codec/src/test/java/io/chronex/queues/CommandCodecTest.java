package io.chronex.queues;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Commands survive the journal encoding exactly, both readers agree, and no byte sequence makes a decoder throw. */
class CommandCodecTest {
    private final Bytes<?> bytes = Bytes.allocateElasticOnHeap(256);

    @AfterEach
    void release() {
        bytes.releaseLast();
    }

    static <E extends Enum<E>> E randomOrNull(final SplittableRandom random, final E[] values) {
        return random.nextInt(8) == 0 ? null : values[random.nextInt(values.length)];
    }

    static Command randomCommand(final SplittableRandom random, final Command c) {
        c.type = randomOrNull(random, CommandType.values());
        if (c.type == CommandType.CONFIGURATION) {
            c.type = CommandType.NEW_ORDER; // a record of its own, never a command excerpt's type (its own test below)
        }
        c.side = randomOrNull(random, Side.values());
        c.orderType = randomOrNull(random, OrderType.values());
        c.timeInForce = randomOrNull(random, TimeInForce.values());
        c.selfTradePrevention = randomOrNull(random, SelfTradePrevention.values());
        c.postOnly = random.nextBoolean();
        c.symbol = random.nextInt();
        c.account = random.nextLong();
        c.clientOrderId = random.nextLong();
        c.orderId = random.nextLong();
        c.newClientOrderId = random.nextLong();
        c.price = random.nextLong();
        c.quantity = random.nextLong();
        // One slot holds a NEW_ORDER's reserve price and anything else's max order quantity: a command has one of them.
        final long slot = random.nextLong();
        c.reservePrice = c.type == CommandType.NEW_ORDER ? slot : 0;
        c.maxOrderQuantity = c.type == CommandType.NEW_ORDER ? 0 : slot;
        c.maxOrderNotional = random.nextLong();
        c.maxOpenOrders = random.nextInt();
        return c;
    }

    static Hops randomHops(final SplittableRandom random, final Hops hops) {
        hops.clear();
        hops.gatewayId = random.nextInt();
        hops.sessionId = random.nextLong();
        hops.gatewayReadNanos = random.nextLong();
        hops.gatewayAppendNanos = random.nextLong();
        hops.receiptEpochNanos = random.nextLong();
        return hops;
    }

    /** A random text of 0..64 printable characters: empty about one time in four. */
    static String randomText(final SplittableRandom random) {
        final int length = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(CommandText.MAX_LENGTH);
        final StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) random.nextInt(0x21, 0x7F));
        }
        return sb.toString();
    }

    @Test
    void textsRoundTripAndACommandWithoutTextIsTheVersionOneExcerptByteForByte() {
        final SplittableRandom random = new SplittableRandom(3);
        final Command c = new Command();
        final Hops hops = new Hops();
        final CommandText written = new CommandText();
        final CommandText read = new CommandText();
        final Command readCommand = new Command();
        for (int i = 0; i < 20_000; i++) {
            randomCommand(random, c);
            randomHops(random, hops);
            written.set(randomText(random), randomText(random));
            bytes.clear();
            CommandCodec.write(bytes, c, hops);
            final byte[] versionOne = bytes.toByteArray();
            bytes.clear();
            CommandCodec.write(bytes, c, hops, written);
            final byte[] withText = bytes.toByteArray();
            if (written.isEmpty()) {
                assertArrayEquals(versionOne, withText, "no text: the version 1 layout, unchanged");
            } else {
                assertEquals(CommandCodec.VERSION_WITH_TEXT, withText[1]);
                assertEquals(CommandCodec.LENGTH + 2 + written.clientOrderIdLength + written.newClientOrderIdLength, withText.length);
                // The fixed part is version 1's apart from the version byte: readers of the fields need nothing new.
                withText[1] = CommandCodec.VERSION;
                assertArrayEquals(versionOne, java.util.Arrays.copyOf(withText, CommandCodec.LENGTH));
            }
            assertEquals(DecodeStatus.OK, CommandCodec.read(bytes, readCommand.clear(), new Hops(), read.set("stale", "stale")));
            assertEquals(0, bytes.readRemaining(), "the reader consumes the whole excerpt, texts included");
            assertEquals(written.toString(), read.toString());
            assertEquals(c.toString(), readCommand.toString());
        }
    }

    @Test
    void aClusterNodesExcerptCarriesItsOriginAndReadsAsTheCommandItWas() {
        final SplittableRandom random = new SplittableRandom(9);
        final Command c = new Command();
        final Hops hops = new Hops();
        final CommandText written = new CommandText();
        final CommandText read = new CommandText();
        final Command readCommand = new Command();
        final CommandOrigin origin = new CommandOrigin();
        for (int i = 0; i < 20_000; i++) {
            randomCommand(random, c);
            randomHops(random, hops);
            written.set(randomText(random), randomText(random));
            final CommandOrigin from = new CommandOrigin().set(random.nextInt(), random.nextLong(), random.nextLong());
            bytes.clear();
            CommandCodec.write(bytes, c, hops, random.nextBoolean() ? written : null, from);
            final byte[] excerpt = bytes.toByteArray();
            assertEquals(CommandCodec.VERSION_WITH_ORIGIN, excerpt[1]);
            assertTrue(CommandCodec.readOrigin(bytes, 0, excerpt.length, origin));
            assertEquals(from.source + "/" + from.sequence + "/" + from.logPosition, origin.source + "/" + origin.sequence + "/"
                + origin.logPosition);
            final Hops readHops = new Hops();
            assertEquals(DecodeStatus.OK, CommandCodec.read(bytes, readCommand.clear(), readHops, read.set("stale", "stale")));
            assertEquals(0, bytes.readRemaining(), "the reader consumes the whole excerpt, origin included");
            assertEquals(c.toString(), readCommand.toString());
            assertEquals(hops.sessionId, readHops.sessionId);
            for (int length = 0; i < 200 && length < excerpt.length; length++) {
                assertEquals(DecodeStatus.TRUNCATED, decode(java.util.Arrays.copyOf(excerpt, length)), "length " + length);
                assertFalse(CommandCodec.readOrigin(Bytes.wrapForRead(excerpt), 0, length, origin), "length " + length);
            }
        }
        bytes.clear();
        CommandCodec.write(bytes, c, hops, written);
        assertFalse(CommandCodec.readOrigin(bytes, 0, bytes.readRemaining(), origin), "a gateway's excerpt has no origin");
    }

    @Test
    void everyFieldRoundTrips() {
        final SplittableRandom random = new SplittableRandom(1);
        final Command written = new Command();
        final Command read = new Command();
        final Hops writtenHops = new Hops();
        final Hops readHops = new Hops();
        for (int i = 0; i < 20_000; i++) {
            bytes.clear();
            CommandCodec.write(bytes, randomCommand(random, written), randomHops(random, writtenHops));
            assertEquals(CommandCodec.LENGTH, bytes.readRemaining());
            assertEquals(DecodeStatus.OK, CommandCodec.read(bytes, read.clear(), readHops.clear()));
            assertEquals(written.toString() + written.postOnly + written.selfTradePrevention + written.maxOpenOrders,
                read.toString() + read.postOnly + read.selfTradePrevention + read.maxOpenOrders);
            assertEquals(written.maxOrderQuantity, read.maxOrderQuantity);
            assertEquals(written.reservePrice, read.reservePrice);
            assertEquals(written.maxOrderNotional, read.maxOrderNotional);
            assertEquals(writtenHops.gatewayId, readHops.gatewayId);
            assertEquals(writtenHops.sessionId, readHops.sessionId);
            assertEquals(writtenHops.gatewayReadNanos, readHops.gatewayReadNanos);
            assertEquals(writtenHops.gatewayAppendNanos, readHops.gatewayAppendNanos);
            assertEquals(writtenHops.receiptEpochNanos, readHops.receiptEpochNanos);
        }
    }

    @Test
    void truncatedForeignOrFutureExcerptsAreReportedNotThrown() {
        final Command c = new Command().limit(1, 2, 3, Side.BUY, 100, 5);
        final Hops hops = new Hops();
        bytes.clear();
        CommandCodec.write(bytes, c, hops);
        final byte[] whole = bytes.toByteArray();
        for (int length = 0; length < whole.length; length++) {
            assertEquals(DecodeStatus.TRUNCATED, decode(java.util.Arrays.copyOf(whole, length)), "length " + length);
        }
        final byte[] foreign = whole.clone();
        foreign[0] = 'X';
        assertEquals(DecodeStatus.UNKNOWN_MESSAGE_TYPE, decode(foreign));
        // Deliberately changed with the texts (2026-11): version 2 is now read; then with the cluster's origin, 3 too; 4 is the future.
        final byte[] future = whole.clone();
        future[1] = 4;
        assertEquals(DecodeStatus.UNSUPPORTED_VERSION, decode(future));
        final byte[] badSide = whole.clone();
        badSide[3] = 9;
        assertEquals(DecodeStatus.BAD_VALUE, decode(badSide));
        // CONFIGURATION is the answer to a record of its own ('K'): as a command's type it is as wrong as an unknown one.
        final byte[] configuration = whole.clone();
        configuration[2] = (byte) CommandType.CONFIGURATION.ordinal();
        assertEquals(DecodeStatus.BAD_VALUE, decode(configuration));
    }

    @Test
    void truncatedOrOverlongTextsAreReportedNotThrown() {
        final Command c = new Command().limit(1, 2, 3, Side.BUY, 100, 5);
        bytes.clear();
        CommandCodec.write(bytes, c, new Hops(), new CommandText().set("Run42-A1", "123e4567-e89b-12d3-a456-426614174000"));
        final byte[] whole = bytes.toByteArray();
        for (int length = 0; length < whole.length; length++) {
            assertEquals(DecodeStatus.TRUNCATED, decode(java.util.Arrays.copyOf(whole, length)), "length " + length);
        }
        assertEquals(DecodeStatus.OK, decode(whole));
        final byte[] overlong = whole.clone();
        overlong[CommandCodec.LENGTH] = (byte) (CommandText.MAX_LENGTH + 1);
        assertEquals(DecodeStatus.BAD_VALUE, decode(overlong));
    }

    @Test
    void aMillionMutatedExcerptsNeverThrow() {
        final SplittableRandom random = new SplittableRandom(5);
        final Command c = new Command();
        final Hops hops = new Hops();
        final CommandText text = new CommandText();
        int ok = 0;
        for (int i = 0; i < 1_000_000; i++) {
            bytes.clear();
            CommandCodec.write(bytes, randomCommand(random, c), randomHops(random, hops),
                random.nextBoolean() ? text.set(randomText(random), randomText(random)) : null);
            final byte[] excerpt = bytes.toByteArray();
            final int length = random.nextInt(10) == 0 ? random.nextInt(excerpt.length + 1) : excerpt.length;
            final byte[] mutated = java.util.Arrays.copyOf(excerpt, length);
            for (int flips = random.nextInt(4); flips > 0 && length > 0; flips--) {
                mutated[random.nextInt(length)] = (byte) random.nextInt(256);
            }
            final DecodeStatus status = decode(mutated);
            assertNotNull(status);
            if (status == DecodeStatus.OK) {
                ok++;
            }
        }
        // Most mutations hit numeric fields and still decode; the point is that none threw.
        assertTrue(ok > 0 && ok < 1_000_000, ok + " decoded OK");
    }

    /**
     * Decodes with the sequential reader and, at an odd offset after some junk, with the absolute
     * one recovery uses; both must agree on the status and on every field.
     */
    private DecodeStatus decode(final byte[] excerpt) {
        bytes.clear();
        bytes.write(excerpt);
        final Command sequential = new Command();
        final Hops sequentialHops = new Hops();
        final CommandText sequentialText = new CommandText();
        final DecodeStatus status = CommandCodec.read(bytes, sequential, sequentialHops, sequentialText);
        bytes.clear();
        bytes.write(new byte[] {1, 2, 3});
        bytes.write(excerpt);
        bytes.write(new byte[] {4, 5});
        final Command absolute = new Command();
        final Hops absoluteHops = new Hops();
        final CommandText absoluteText = new CommandText();
        assertEquals(status, CommandCodec.readAt(bytes, 3, excerpt.length, absolute, absoluteHops, absoluteText));
        assertEquals(sequentialText.toString(), absoluteText.toString());
        assertEquals(sequential.toString() + sequential.postOnly + sequential.selfTradePrevention + sequential.maxOpenOrders
                + sequential.maxOrderQuantity + sequential.maxOrderNotional,
            absolute.toString() + absolute.postOnly + absolute.selfTradePrevention + absolute.maxOpenOrders
                + absolute.maxOrderQuantity + absolute.maxOrderNotional);
        assertEquals(sequentialHops.sessionId + " " + sequentialHops.gatewayId + " " + sequentialHops.receiptEpochNanos + " "
            + sequentialHops.clientSeqNum,
            absoluteHops.sessionId + " " + absoluteHops.gatewayId + " " + absoluteHops.receiptEpochNanos + " " + absoluteHops.clientSeqNum);
        return status;
    }
}
