package io.chronex.queues;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.EngineConfig;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Engine results survive the events encoding exactly (through a real queue too), allocation-free, and bad bytes never throw. */
class EventCodecTest {
    private final Bytes<?> bytes = Bytes.allocateElasticOnHeap(1024);

    @AfterEach
    void release() {
        bytes.releaseLast();
    }

    /** Results of a random but busy stream: orders that rest and cross, cancels, moves, mass cancels, self-trade cancels. */
    private static List<Result> engineResults(final int count) {
        final MatchingEngine engine = new MatchingEngine(new EngineConfig(List.of(SymbolSpec.plain(1), SymbolSpec.plain(2)),
            List.of(), RiskCheck.all(), true, null));
        final SplittableRandom random = new SplittableRandom(9);
        final Command c = new Command();
        final List<Result> results = new ArrayList<>();
        engine.apply(c.setAccountLimits(3, 0, 0, 0, SelfTradePrevention.CANCEL_BOTH), new Result());
        for (int i = 0; i < count; i++) {
            final long account = 1 + random.nextInt(4);
            switch (random.nextInt(10)) {
                case 0 -> c.cancel(account, 1 + random.nextInt(i + 1));
                case 1 -> c.move(account, 1 + random.nextInt(i + 1), 95 + random.nextInt(11));
                case 2 -> c.massCancel(account, random.nextInt(3));
                case 3 -> c.symbolCommand(CommandType.END_OF_DAY, 0);
                default -> c.newOrder(account, 1 + random.nextInt(2), i + 1, random.nextBoolean() ? Side.BUY : Side.SELL,
                    random.nextInt(10) == 0 ? OrderType.MARKET : OrderType.LIMIT,
                    TimeInForce.values()[random.nextInt(4)], 95 + random.nextInt(11), 1 + random.nextInt(20));
            }
            final Result r = new Result();
            engine.apply(c, r);
            results.add(r);
        }
        return results;
    }

    private static EventHeader header(final long index) {
        final EventHeader header = new EventHeader();
        header.commandIndex = index;
        header.hops.gatewayId = 3;
        header.hops.sessionId = 77;
        header.hops.gatewayReadNanos = 1_000 + index;
        header.hops.gatewayAppendNanos = 2_000 + index;
        header.hops.receiptEpochNanos = 3_000 + index;
        header.hops.engineReadNanos = 4_000 + index;
        header.hops.engineDoneNanos = 5_000 + index;
        header.hops.engineAppendNanos = 6_000 + index;
        // Every fifth a checkpoint (version 2: the state hash after the lists).
        header.checkpoint = index % 5 == 2;
        header.stateHash = header.checkpoint ? 0x5EED_0000_0000_0000L ^ index * 0x9E37_79B9_7F4A_7C15L : 0;
        return header;
    }

    private static String describe(final EventHeader header, final Result r) {
        final Hops h = header.hops;
        return header.commandIndex + " " + h.gatewayId + "/" + h.sessionId + " " + h.gatewayReadNanos + " " + h.gatewayAppendNanos + " "
            + h.receiptEpochNanos + " " + h.engineReadNanos + " " + h.engineDoneNanos + " " + h.engineAppendNanos
            + (header.checkpoint ? " state " + Long.toHexString(header.stateHash) : "") + "\n" + r;
    }

    @Test
    void everyResultRoundTripsFieldForField() {
        final List<Result> results = engineResults(20_000);
        assertTrue(results.stream().anyMatch(r -> r.fillCount() > 2) && results.stream().anyMatch(r -> r.cancelCount() > 2),
            "the stream must produce multi-fill and multi-cancel results");
        final EventHeader read = new EventHeader();
        final Result decoded = new Result();
        for (int i = 0; i < results.size(); i++) {
            final EventHeader written = header(i);
            bytes.clear();
            EventCodec.write(bytes, written, results.get(i));
            assertEquals(DecodeStatus.OK, EventCodec.read(bytes, read, decoded));
            assertEquals(describe(written, results.get(i)), describe(read, decoded));
            assertEquals(0, bytes.readRemaining(), "the decoder consumes exactly what was written");
            final EventHeader routing = new EventHeader();
            assertEquals(DecodeStatus.OK, EventCodec.readHeaderAt(bytes, 0, bytes.readLimit(), routing));
            assertEquals(written.checkpoint + " " + written.stateHash, routing.checkpoint + " " + routing.stateHash);
            final EventHeader answered = new EventHeader();
            assertEquals(DecodeStatus.OK, EventCodec.readAnsweredAt(bytes, 0, bytes.readLimit(), answered));
            assertEquals(written.commandIndex + " " + written.checkpoint + " " + written.stateHash,
                answered.commandIndex + " " + answered.checkpoint + " " + answered.stateHash);
        }
    }

    @Test
    void matchesIsTrueForWhatWriteMadeAndFalseForAnyOtherByteOutsideTheHeadersOwnFields() {
        final List<Result> results = engineResults(3_000);
        long flipped = 0;
        int checkpoints = 0;
        for (int i = 0; i < results.size(); i++) {
            final Result r = results.get(i);
            bytes.clear();
            final boolean checkpoint = header(i).checkpoint;
            checkpoints += checkpoint ? 1 : 0;
            EventCodec.write(bytes, header(i), r);
            final long length = bytes.readRemaining();
            assertTrue(EventCodec.matches(bytes, 0, length, r), "as written: result " + i);
            assertFalse(EventCodec.matches(bytes, 0, length - 1, r), "a byte short: result " + i);
            // Every byte changed in turn: only the command index, gateway, session and hop times (the excerpt's own) may differ.
            for (int at = 0; at < length; at++) {
                final byte was = bytes.readByte(at);
                bytes.writeByte(at, (byte) (was ^ (1 << (at % 8))));
                // A checkpoint's state hash is not the result's either: verify compares it with its own engine's.
                final boolean own = at >= 8 && at < 20 || at >= 24 && at < 32 || at >= 104 && at < EventCodec.HEADER_LENGTH
                    || checkpoint && at >= length - EventCodec.STATE_HASH_LENGTH;
                assertEquals(own, EventCodec.matches(bytes, 0, length, r), "result " + i + " with byte " + at + " changed");
                bytes.writeByte(at, was);
                flipped++;
            }
        }
        assertTrue(results.stream().anyMatch(r -> r.fillCount() > 0) && results.stream().anyMatch(r -> r.cancelCount() > 0)
            && results.stream().anyMatch(r -> r.levelChangeCount() > 0), "fills, cancels and level changes among them");
        assertTrue(flipped > 500_000, "bytes changed: " + flipped);
        assertEquals(600, checkpoints);
    }

    @Test
    void resultsTravelThroughARealEventsQueue(@TempDir final Path dir) {
        final List<Result> results = engineResults(2_000);
        try (SingleChronicleQueue events = DataDirectory.open(dir).events()) {
            final ExcerptAppender appender = events.createAppender();
            for (int i = 0; i < results.size(); i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    EventCodec.write(dc.wire().bytes(), header(i), results.get(i));
                }
            }
            final ExcerptTailer tailer = events.createTailer();
            final EventHeader read = new EventHeader();
            final Result decoded = new Result();
            for (int i = 0; i < results.size(); i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    assertTrue(dc.isPresent());
                    assertEquals(DecodeStatus.OK, EventCodec.read(dc.wire().bytes(), read, decoded));
                    assertEquals(describe(header(i), results.get(i)), describe(read, decoded));
                }
            }
        }
    }

    @Test
    void encodingAndDecodingAllocateNothing() {
        final List<Result> results = engineResults(5_000);
        final EventHeader header = header(1);
        final EventHeader read = new EventHeader();
        final Result decoded = new Result();
        final Command command = new Command();
        final Hops hops = new Hops();
        final Bytes<?> direct = Bytes.allocateElasticDirect(64 * 1024);
        try {
            for (int round = 0; round < 3; round++) {
                final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (final Result r : results) {
                    direct.clear();
                    EventCodec.write(direct, header, r);
                    EventCodec.read(direct, read, decoded);
                    direct.clear();
                    CommandCodec.write(direct, command.limit(1, 2, 3, Side.BUY, 4, 5), hops);
                    CommandCodec.read(direct, command, hops);
                }
                final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                if (round == 2) {
                    assertTrue(allocated < 4_096, allocated + " bytes allocated coding " + results.size() + " results and commands");
                }
            }
        } finally {
            direct.releaseLast();
        }
    }

    @Test
    void badBytesAreReportedNeverThrown() {
        final List<Result> results = engineResults(3_000);
        final SplittableRandom random = new SplittableRandom(4);
        final EventHeader read = new EventHeader();
        final Result decoded = new Result();
        int cases = 0;
        for (int round = 0; round < 100; round++) {
            for (final Result r : results) {
                bytes.clear();
                EventCodec.write(bytes, header(round), r);
                final byte[] excerpt = bytes.toByteArray();
                final int length = random.nextInt(8) == 0 ? random.nextInt(excerpt.length + 1) : excerpt.length;
                final byte[] mutated = Arrays.copyOf(excerpt, length);
                for (int flips = random.nextInt(4); flips > 0 && length > 0; flips--) {
                    mutated[random.nextInt(length)] = (byte) random.nextInt(256);
                }
                bytes.clear();
                bytes.write(mutated);
                assertNotNull(EventCodec.read(bytes, read, decoded));
                cases++;
            }
        }
        assertEquals(300_000, cases);
        for (final int i : new int[] {0, 2}) { // a result, and one with a checkpoint
            bytes.clear();
            EventCodec.write(bytes, header(i), results.get(i));
            final byte[] whole = bytes.toByteArray();
            for (int length = 0; length < whole.length; length++) {
                bytes.clear();
                bytes.write(whole, 0, length);
                assertEquals(DecodeStatus.TRUNCATED, EventCodec.read(bytes, read, decoded), "result " + i + ", length " + length);
            }
        }
    }
}
