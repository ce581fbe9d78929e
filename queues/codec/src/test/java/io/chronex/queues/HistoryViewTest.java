package io.chronex.queues;

import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cycles moved to an archive (one stored as it was, one compressed) are read back through a history view as if they had
 * never left, by the same indices; the live queue no longer has them; an interrupted move finishes; a damaged archive is
 * refused, never read.
 */
class HistoryViewTest {
    @TempDir
    Path tmp;

    private final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z"));

    /** {@code count} excerpts of 64 bytes, excerpt i holding i; their indices. */
    private static List<Long> append(final DataDirectory data, final int from, final int count) {
        final List<Long> indices = new ArrayList<>();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = from; i < from + count; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().bytes().writeLong(i).write(new byte[56]);
                }
                indices.add(appender.lastIndexAppended());
            }
        }
        return indices;
    }

    /** Every excerpt's index and first long, in order. */
    private static List<Long> read(final DataDirectory data, final List<Long> values) {
        final List<Long> indices = new ArrayList<>();
        try (SingleChronicleQueue commands = data.commands(); ExcerptTailer tailer = commands.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return indices;
                    }
                    indices.add(dc.index());
                    values.add(dc.wire().bytes().readLong());
                }
            }
        }
    }

    private static List<String> cycleFiles(final Path queue) throws Exception {
        try (Stream<Path> files = Files.list(queue)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".cq4")).sorted().toList();
        }
    }

    @Test
    void archivedCyclesAreReadBackThroughTheViewByTheSameIndices() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d")).withClock(clock);
        final List<Long> written = new ArrayList<>(append(data, 0, 1_000));
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        written.addAll(append(data, 1_000, 1_000));
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        written.addAll(append(data, 2_000, 1_000));
        final List<String> files = cycleFiles(data.root().resolve("commands"));
        assertEquals(List.of("20261120F.cq4", "20261121F.cq4", "20261122F.cq4"), files);

        final Path archive = tmp.resolve("archive");
        final CycleArchive cycles = new CycleArchive(data.root(), archive);
        cycles.move("commands", files.get(0), true);
        cycles.move("commands", files.get(1), false);
        assertEquals(List.of("20261122F.cq4"), cycleFiles(data.root().resolve("commands")));
        assertEquals(ArchivedCycles.cycleOfIndex(written.get(1_000)), ArchivedCycles.ofDataDirectory(data.root()).lastCycle("commands"));
        assertEquals(2, ArchivedCycles.ofArchive(archive).cycles().size());

        final List<Long> live = read(data, new ArrayList<>());
        assertEquals(written.subList(2_000, 3_000), live, "the live queue starts at the third day");
        try (HistoryView view = HistoryView.open(data.root())) {
            assertTrue(view.includesArchive());
            final List<Long> values = new ArrayList<>();
            assertEquals(written, read(view.data(), values), "every excerpt, by the index it was written at");
            for (int i = 0; i < values.size(); i++) {
                assertEquals(i, values.get(i));
            }
        }
    }

    @Test
    void anInterruptedMoveFinishesAndADamagedArchiveIsRefused() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("d")).withClock(clock);
        append(data, 0, 100);
        clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
        append(data, 100, 100);
        final Path archive = tmp.resolve("archive");
        final Path first = data.root().resolve("commands").resolve("20261120F.cq4");
        final byte[] original = Files.readAllBytes(first);
        new CycleArchive(data.root(), archive).move("commands", "20261120F.cq4", true);
        // As a kill between the listing and the delete leaves it: both copies, and a partial copy of a later attempt.
        Files.write(first, original);
        Files.write(archive.resolve("commands").resolve("20261121F.cq4.gz.partial"), new byte[] {1, 2, 3});
        assertEquals(1, new CycleArchive(data.root(), archive).finishInterrupted());
        assertFalse(Files.exists(first));
        assertFalse(Files.exists(archive.resolve("commands").resolve("20261121F.cq4.gz.partial")));

        final Path stored = archive.resolve("commands").resolve("20261120F.cq4.gz");
        final byte[] gz = Files.readAllBytes(stored);
        gz[gz.length / 2] ^= 0x55;
        Files.write(stored, gz);
        final RuntimeException e = assertThrows(RuntimeException.class, () -> HistoryView.open(data.root()).close());
        assertTrue(e.getMessage().contains("20261120F.cq4"), e.getMessage());
        Files.delete(stored);
        final RuntimeException gone = assertThrows(RuntimeException.class, () -> HistoryView.open(data.root()).close());
        assertTrue(gone.getMessage().contains("not there"), gone.getMessage());
    }

    /** Stops a move dead at a step, as a kill -9 there would. */
    private static final class Killed extends Error {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void aMoveStoppedAtAnyStepLeavesTheCycleInPlaceOrWholeInTheArchiveAndTheNextRunFinishes() throws Exception {
        for (final CycleArchive.Step step : CycleArchive.Step.values()) {
            final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z"));
            final DataDirectory data = DataDirectory.open(tmp.resolve("d-" + step)).withClock(clock);
            final List<Long> written = new ArrayList<>(append(data, 0, 300));
            clock.advanceMillis(TimeUnit.DAYS.toMillis(1));
            written.addAll(append(data, 300, 300));
            final Path archive = tmp.resolve("archive-" + step);
            final Path original = data.root().resolve("commands").resolve("20261120F.cq4");
            assertThrows(Killed.class, () -> new CycleArchive(data.root(), archive, at -> {
                if (at == step) {
                    throw new Killed();
                }
            }).move("commands", "20261120F.cq4", true), step.name());
            final boolean listed = ArchivedCycles.ofDataDirectory(data.root()).find("commands", "20261120F.cq4").isPresent();
            assertTrue(Files.exists(original) || listed, step + ": in place, or listed whole in the archive");
            assertEquals(step.compareTo(CycleArchive.Step.LISTED) >= 0, listed, step.name());
            final CycleArchive next = new CycleArchive(data.root(), archive);
            next.finishInterrupted();
            if (Files.exists(original)) {
                next.move("commands", "20261120F.cq4", true);
            }
            assertFalse(Files.exists(original), step.name());
            try (HistoryView view = HistoryView.open(data.root())) {
                assertEquals(written, read(view.data(), new ArrayList<>()), step.name());
            }
        }
    }
}
