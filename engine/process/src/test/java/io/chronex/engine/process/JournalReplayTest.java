package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery's replay reads most excerpts straight from the journal's mapped memory: it must apply
 * exactly what Chronicle's tailer would hand out, one by one, across chunk boundaries, index pages
 * and garbage excerpts of odd lengths, and leave the tailer just after the last one.
 */
class JournalReplayTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));
    private static final int COMMANDS = 60_000;

    @TempDir
    Path tmp;

    /** A small block size, so that 60,000 excerpts (~7.5 MB) span many mapped chunks. */
    private SingleChronicleQueue open(final Path dir) {
        return SingleChronicleQueueBuilder.single(dir.toFile()).rollCycle(RollCycles.FAST_DAILY).blockSize(256 << 10).build();
    }

    /** Appends a trading stream with a garbage excerpt of 1 to 11 bytes every ~100 commands; returns every index. */
    private static List<Long> append(final SingleChronicleQueue queue, final int count) {
        final List<Long> indices = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(11);
        final Command c = new Command();
        final Hops hops = new Hops();
        final ExcerptAppender appender = queue.createAppender();
        for (int i = 0; i < count; i++) {
            try (DocumentContext dc = appender.writingDocument()) {
                if (random.nextInt(100) == 0) {
                    final int length = 1 + random.nextInt(11);
                    for (int b = 0; b < length; b++) {
                        dc.wire().bytes().writeByte((byte) (b == 0 ? CommandCodec.MESSAGE_TYPE : random.nextInt(256)));
                    }
                } else {
                    final long account = 1 + random.nextInt(20);
                    switch (random.nextInt(5)) {
                        case 0 -> c.cancel(account, 1 + random.nextInt(i + 1));
                        case 1 -> c.move(account, 1 + random.nextInt(i + 1), 90 + random.nextInt(21));
                        default -> c.limit(account, 1, i + 1, random.nextBoolean() ? Side.BUY : Side.SELL, 90 + random.nextInt(21),
                            1 + random.nextInt(10));
                    }
                    hops.clear();
                    CommandCodec.write(dc.wire().bytes(), c, hops);
                }
            }
            indices.add(appender.lastIndexAppended());
        }
        return indices;
    }

    /** The reference: each excerpt through the tailer and the codec's sequential read, as the live engine does. */
    private static MatchingEngine oneByOne(final SingleChronicleQueue queue, final long through) {
        final MatchingEngine engine = new MatchingEngine(CONFIG);
        final Command c = new Command();
        final Result result = new Result();
        final Hops hops = new Hops();
        final ExcerptTailer tailer = queue.createTailer();
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                assertTrue(dc.isPresent());
                if (CommandCodec.read(dc.wire().bytes(), c, hops) == DecodeStatus.OK) {
                    engine.apply(c, result);
                }
                if (dc.index() == through) {
                    return engine;
                }
            }
        }
    }

    @Test
    void replayFromMemoryAppliesWhatTheTailerReadsAndLeavesTheTailerJustAfter() {
        try (SingleChronicleQueue queue = open(tmp.resolve("q"))) {
            final List<Long> indices = append(queue, COMMANDS);
            for (final int last : new int[] {0, 1, 63, 4_097, 37_123, COMMANDS - 2, COMMANDS - 1}) {
                final long through = indices.get(last);
                final MatchingEngine replayed = new MatchingEngine(CONFIG);
                final ExcerptTailer tailer = queue.createTailer();
                final JournalReplay replay = new JournalReplay(replayed);
                assertEquals(last + 1, replay.replay(tailer, through, tmp), "commands replayed through #" + last);
                if (last == COMMANDS - 1) {
                    // The point of the class: nearly every excerpt read from memory, across many chunks.
                    assertTrue(replay.readFromMemory() > COMMANDS * 9L / 10, "read from memory: " + replay.readFromMemory());
                    assertTrue(replay.handovers() >= 10, "handovers to the tailer: " + replay.handovers());
                }
                assertEquals(oneByOne(queue, through).stateHash(), replayed.stateHash(), "state after #" + last);
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (last == COMMANDS - 1) {
                        assertTrue(!dc.isPresent(), "nothing after the last command");
                    } else {
                        assertEquals((long) indices.get(last + 1), dc.index(), "tailer position after #" + last);
                    }
                }
            }
            // Not a check that cannot fail: a different stopping point gives a different state.
            assertNotEquals(oneByOne(queue, indices.get(37_123)).stateHash(), oneByOne(queue, indices.get(37_124 + 50)).stateHash());
        }
    }

    @Test
    void replayFromTheMiddleStartsWhereTheTailerStands() {
        try (SingleChronicleQueue queue = open(tmp.resolve("q"))) {
            final List<Long> indices = append(queue, 20_000);
            final MatchingEngine replayed = new MatchingEngine(CONFIG);
            final ExcerptTailer tailer = queue.createTailer();
            final JournalReplay replay = new JournalReplay(replayed);
            assertEquals(5_001, replay.replay(tailer, indices.get(5_000), tmp));
            assertEquals(14_999, replay.replay(tailer, indices.get(19_999), tmp));
            assertEquals(oneByOne(queue, indices.get(19_999)).stateHash(), replayed.stateHash());
        }
    }

    @Test
    void aJournalThatEndsBeforeTheLastAnsweredCommandIsAClearError() {
        try (SingleChronicleQueue queue = open(tmp.resolve("q"))) {
            final List<Long> indices = append(queue, 1_000);
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new JournalReplay(new MatchingEngine(CONFIG)).replay(queue.createTailer(), indices.get(999) + 5, tmp));
            assertTrue(e.getMessage().contains("ends after index " + Long.toHexString(indices.get(999))), e.getMessage());
        }
    }
}
