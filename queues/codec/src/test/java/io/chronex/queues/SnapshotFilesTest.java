package io.chronex.queues;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A snapshot file's header: every damage to it is found, and the journal fingerprint is the same however the excerpt is read. */
class SnapshotFilesTest {
    @TempDir
    Path tmp;

    private static final byte[] BODY = new byte[1_000];

    static {
        new SplittableRandom(1).nextBytes(BODY);
    }

    @Test
    void aWholeFileOpensAndAnyTruncationOrFlippedBitIsFound() {
        final byte[] file = SnapshotEnvelope.wrap(0x1234_0000_0005L, 77, 99, BODY);
        assertEquals(new SnapshotEnvelope.Header(0x1234_0000_0005L, 77, 99, BODY.length), SnapshotEnvelope.open(file));
        for (int length = 0; length < file.length; length++) {
            final byte[] cut = Arrays.copyOf(file, length);
            assertThrows(IllegalArgumentException.class, () -> SnapshotEnvelope.open(cut), "truncated to " + length);
        }
        for (int bit = 0; bit < file.length * 8; bit += 7) {
            final byte[] flipped = file.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThrows(IllegalArgumentException.class, () -> SnapshotEnvelope.open(flipped), "bit " + bit + " flipped");
        }
    }

    /** The engine fingerprints through a tailer's document, the audit tools through the walk: the same number. */
    @Test
    void theFingerprintIsTheSameThroughATailerAndThroughTheWalk() {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(tmp.resolve("q").toFile())
            .rollCycle(TestRollCycles.TEST8_DAILY).blockSize(64 << 10).build()) {
            final ExcerptAppender appender = queue.createAppender();
            final List<Long> indices = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                final byte[] b = new byte[1 + new SplittableRandom(i).nextInt(200)];
                new SplittableRandom(i * 31L).nextBytes(b);
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().bytes().write(b);
                }
                indices.add(appender.lastIndexAppended());
            }
            final List<Long> walked = new ArrayList<>();
            try (ExcerptWalk walk = new ExcerptWalk(queue.createTailer())) {
                while (walk.next()) {
                    assertEquals(SnapshotFiles.commandFingerprint(queue, walk.index()).getAsLong(),
                        SnapshotEnvelope.fingerprint(walk.in(), walk.offset(), walk.length()), "at " + Long.toHexString(walk.index()));
                    walked.add(walk.index());
                }
            }
            assertEquals(indices, walked);
            assertTrue(SnapshotFiles.commandFingerprint(queue, indices.get(indices.size() - 1) + 1).isEmpty(), "none past the end");
        }
    }

    @Test
    void readChecksTheNameTheConfigurationAndTheJournal() throws Exception {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(tmp.resolve("q").toFile())
            .rollCycle(TestRollCycles.TEST8_DAILY).build()) {
            final ExcerptAppender appender = queue.createAppender();
            for (int i = 0; i < 3; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().bytes().writeLong(i);
                }
            }
            final long index = appender.lastIndexAppended();
            final long fingerprint = SnapshotFiles.commandFingerprint(queue, index).getAsLong();
            final Path dir = Files.createDirectories(tmp.resolve("snapshots"));
            final Path file = dir.resolve(SnapshotFiles.name(index));
            Files.write(file, SnapshotEnvelope.wrap(index, 5, fingerprint, BODY));
            assertArrayEquals(BODY, SnapshotFiles.read(file, new SnapshotFiles.Expect(5L, queue)));
            assertArrayEquals(BODY, SnapshotFiles.read(file, new SnapshotFiles.Expect(null, null)));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> SnapshotFiles.read(file, new SnapshotFiles.Expect(6L, queue)))
                .getMessage().contains("configuration hash 5, not this configuration's 6"));
            final Path earlier = dir.resolve(SnapshotFiles.name(index - 1));
            Files.copy(file, earlier);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> SnapshotFiles.read(earlier, new SnapshotFiles.Expect(null, null)))
                .getMessage().contains("its name says journal index 0x" + Long.toHexString(index - 1)));
            Files.write(earlier, SnapshotEnvelope.wrap(index - 1, 5, fingerprint, BODY));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> SnapshotFiles.read(earlier, new SnapshotFiles.Expect(5L, queue)))
                .getMessage().contains("is not the one it was taken after"));
            final Path later = dir.resolve(SnapshotFiles.name(index + 1));
            Files.write(later, SnapshotEnvelope.wrap(index + 1, 5, fingerprint, BODY));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> SnapshotFiles.read(later, new SnapshotFiles.Expect(5L, queue)))
                .getMessage().contains("has no command at journal index"));
        }
    }
}
