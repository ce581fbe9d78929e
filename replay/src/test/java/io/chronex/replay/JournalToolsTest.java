package io.chronex.replay;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** journal-summary catches missing and duplicate answers; latency-report survives any hop length. */
class JournalToolsTest {
    @TempDir
    Path tmp;

    private static List<Long> appendCommands(final DataDirectory data, final int count) {
        final List<Long> indices = new ArrayList<>();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 0; i < count; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    CommandCodec.write(dc.wire().bytes(), new Command().limit(1, 7, i + 1, Side.BUY, 100, 1), new Hops());
                }
                indices.add(appender.lastIndexAppended());
            }
        }
        return indices;
    }

    private static void answer(final ExcerptAppender appender, final long commandIndex, final long gatewayAppend, final long engineRead,
                               final Result result) {
        final EventHeader header = new EventHeader();
        header.commandIndex = commandIndex;
        header.hops.gatewayAppendNanos = gatewayAppend;
        header.hops.engineReadNanos = engineRead;
        header.hops.engineDoneNanos = engineRead + 500;
        header.hops.engineAppendNanos = engineRead + 700;
        try (DocumentContext dc = appender.writingDocument()) {
            EventCodec.write(dc.wire().bytes(), header, result);
        }
    }

    /** A reader creates nothing and changes nothing: a mistyped --data-dir is an error, and a real one keeps every file as it was. */
    @Test
    void summaryReadsWithoutCreatingOrChangingAnything() throws Exception {
        final Path missing = tmp.resolve("no-such-dir");
        assertEquals(2, JournalSummary.exitCode(new String[] {"--data-dir", missing.toString()}));
        assertFalse(java.nio.file.Files.exists(missing), "journal-summary created the directory it was asked to read");
        final Path dir = tmp.resolve("d2");
        final DataDirectory data = DataDirectory.open(dir);
        appendCommands(data, 3);
        try (SingleChronicleQueue events = data.events()) {
            events.createAppender();
        }
        final java.util.Map<Path, String> before = fingerprint(dir);
        // Three commands, none answered (no engine ran): reported, and not as success.
        assertEquals(1, JournalSummary.exitCode(new String[] {"--data-dir", dir.toString()}));
        assertEquals(before, fingerprint(dir), "journal-summary changed files it only had to read");
    }

    private static java.util.Map<Path, String> fingerprint(final Path dir) throws java.io.IOException {
        final java.util.Map<Path, String> files = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(dir)) {
            for (final Path p : (Iterable<Path>) walk.filter(java.nio.file.Files::isRegularFile)::iterator) {
                final byte[] bytes = java.nio.file.Files.readAllBytes(p);
                files.put(p, java.nio.file.Files.getLastModifiedTime(p) + " " + java.util.Arrays.hashCode(bytes));
            }
        }
        return files;
    }

    @Test
    void summaryCountsMissingAndDuplicateAnswersAndRebuildsTheBook() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        final List<Long> journal = appendCommands(data, 5);
        final Result resting = new Result();
        resting.reset(CommandType.NEW_ORDER);
        final LevelChange bid = resting.levelChange(7, Side.BUY, 100);
        bid.quantity = 3;
        bid.orderCount = 1;
        final Result trade = new Result();
        trade.reset(CommandType.NEW_ORDER);
        final Fill fill = trade.addFill();
        fill.price = 100;
        fill.quantity = 2;
        fill.takerSide = Side.SELL;
        final LevelChange after = trade.levelChange(7, Side.BUY, 100);
        after.quantity = 1;
        after.orderCount = 1;
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptAppender appender = events.createAppender();
            answer(appender, journal.get(0), 1, 2, resting);
            answer(appender, journal.get(1), 1, 2, trade);
            answer(appender, journal.get(1), 1, 2, trade);
            answer(appender, journal.get(3), 1, 2, resting);
        }
        final JournalSummary.Summary summary = JournalSummary.summarize(data);
        assertEquals("RESULT commands=5 answered=3 duplicates=1 missing=2 trades=2 volume=4 notional=400 unreadable=0 damaged=0",
            summary.resultLine());
        assertEquals(List.of("symbol=7 best_bid=100 best_ask=none"), summary.symbolLines());
    }

    /**
     * 4 KiB zeroed in the middle of a queue file: Chronicle's tailer stops there as at the end, while the
     * queue's index still counts what follows. journal-summary names the queue and the unreadable indices,
     * and exits 1, for the events queue and for the journal alike.
     */
    @Test
    void summaryFindsAStretchZeroedInTheMiddleOfEitherQueue() throws Exception {
        final Path dir = tmp.resolve("zeroed");
        final DataDirectory data = DataDirectory.open(dir);
        final List<Long> journal = appendCommands(data, 20_000);
        final Result result = new Result();
        result.reset(CommandType.NEW_ORDER);
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptAppender appender = events.createAppender();
            for (final long index : journal) {
                answer(appender, index, 1, 2, result);
            }
        }
        final JournalSummary.Summary clean = JournalSummary.summarize(data);
        assertTrue(clean.clean(), clean.resultLine());
        assertEquals(0, JournalSummary.exitCode(new String[] {"--data-dir", dir.toString()}));

        final Path eventsFile = zeroMiddle(dir.resolve("events"));
        final JournalSummary.Summary afterEvents = JournalSummary.summarize(data);
        assertEquals(1, afterEvents.damage().size(), afterEvents.resultLine());
        final io.chronex.queues.QueueGap gap = afterEvents.damage().get(0);
        assertTrue(gap.describe().contains(dir.resolve("events").toString()), gap.describe());
        assertTrue(gap.firstReadable() > gap.from(), gap.describe());
        // What was read before the gap, the gap and what follows it are the 20,000 excerpts, one after another.
        final long first = journalFirstIndex(dir.resolve("events"));
        assertEquals(gap.from() - first, afterEvents.answered(), gap.describe());
        assertEquals(20_000, afterEvents.answered() + gap.unreadableExcerpts() + gap.lastIndex() - gap.firstReadable() + 1, gap.describe());
        assertTrue(gap.unreadableExcerpts() >= 4096 / (EventCodec.HEADER_LENGTH + 4), gap.describe());
        assertTrue(afterEvents.missing() > 0 && !afterEvents.clean(), afterEvents.resultLine());
        assertTrue(afterEvents.resultLine().endsWith(" damaged=1"), afterEvents.resultLine());
        assertEquals(1, JournalSummary.exitCode(new String[] {"--data-dir", dir.toString()}));
        assertTrue(eventsFile.toString().endsWith(".cq4"), eventsFile.toString());

        zeroMiddle(dir.resolve("commands"));
        final JournalSummary.Summary afterBoth = JournalSummary.summarize(data);
        assertEquals(2, afterBoth.damage().size(), afterBoth.resultLine());
        assertTrue(afterBoth.damage().get(0).describe().contains(dir.resolve("commands").toString()), afterBoth.damage().toString());
        assertTrue(afterBoth.commands() < 20_000, afterBoth.resultLine());
    }

    /** Zeroes 4 KiB at the middle of the queue's one cycle file (past its header and first index pages); returns the file. */
    private static Path zeroMiddle(final Path queueDir) throws java.io.IOException {
        final Path file;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(queueDir)) {
            file = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        final long written;
        try (SingleChronicleQueue queue = net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder.single(queueDir.toFile())
            .readOnly(true).build()) {
            final net.openhft.chronicle.queue.ExcerptTailer tailer = queue.createTailer().toEnd();
            written = tailer.moveToIndex(queue.lastIndex()) ? positionOf(tailer) : -1;
        }
        assertTrue(written > 1 << 20, "the excerpts end at " + written);
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(written / 2);
            raf.write(new byte[4096]);
        }
        return file;
    }

    private static long journalFirstIndex(final Path queueDir) {
        try (SingleChronicleQueue queue = net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder.single(queueDir.toFile())
            .readOnly(true).build()) {
            return queue.firstIndex();
        }
    }

    private static long positionOf(final net.openhft.chronicle.queue.ExcerptTailer tailer) {
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.wire().bytes().readPosition();
        }
    }

    @Test
    void latencyReportHandlesHopsOfAnyLength() {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d"));
        final List<Long> journal = appendCommands(data, 3);
        final Result result = new Result();
        result.reset(CommandType.NEW_ORDER);
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptAppender appender = events.createAppender();
            answer(appender, journal.get(0), 1_000, 2_000, result);
            // Drained three hours after it was appended: a real backlog, not an error.
            answer(appender, journal.get(1), 1_000, 10_800_000_000_000L, result);
            answer(appender, journal.get(2), 0, 10_800_000_010_000L, result);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(3, LatencyReport.report(data, 0, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("match"), out);
        assertTrue(out.matches("(?s).*journal +1\\.00 .*"), out);
        assertTrue(out.contains("engine throughput"), out);
    }
}
