package io.chronex.bench;

import io.chronex.queues.CommandCodec;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The floor for the journal hop: a raw 120-byte document (the size of a command excerpt) written
 * by one thread at a paced rate and read by a second, spinning thread, through a fresh queue, with
 * nothing else done. bin/bench-pipeline runs it beside the real pipeline so both see the same box.
 */
public final class RawHop {
    /** As long as a command excerpt, so the floor moves the same bytes as the journal hop. */
    private static final int DOCUMENT_LENGTH = CommandCodec.LENGTH;

    private RawHop() {
    }

    public static void main(final String[] argv) {
        Tool.run("bench-pipeline", "Usage: RawHop [--count N] [--rate R]   (run by bin/bench-pipeline)\n", () -> {
            final Args args = Args.parse(argv, "--count", "--rate");
            run(args.number("--count", 1_000_000, 1, Long.MAX_VALUE), args.number("--rate", 100_000, 1, Long.MAX_VALUE));
            return 0;
        });
    }

    private static void run(final long count, final long rate) throws Exception {
        final Path dir = Files.createTempDirectory("chronex-rawhop");
        final long total = count;
        final long skip = count / 10;
        final Histogram histogram = new Histogram(3);
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(dir.toFile()).build()) {
            final Thread reader = new Thread(() -> {
                final ExcerptTailer tailer = queue.createTailer();
                long read = 0;
                while (read < total) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (dc.isPresent()) {
                            final long sent = dc.wire().bytes().readLong();
                            if (read++ >= skip) {
                                histogram.recordValue(Math.max(0, System.nanoTime() - sent));
                            }
                        }
                    }
                }
            }, "raw-hop-reader");
            reader.start();
            final ExcerptAppender appender = queue.createAppender();
            final long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                final long intended = start + i * 1_000_000_000L / rate;
                while (System.nanoTime() < intended) {
                    Thread.onSpinWait();
                }
                try (DocumentContext dc = appender.writingDocument()) {
                    dc.wire().bytes().writeLong(System.nanoTime()).writeSkip(DOCUMENT_LENGTH - Long.BYTES);
                }
            }
            reader.join();
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.printf(Locale.ROOT, "raw hop   %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f  (write -> read, %d samples at %d/s)%n",
            histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(90) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
            histogram.getValueAtPercentile(99.9) / 1e3, histogram.getValueAtPercentile(99.99) / 1e3, histogram.getMaxValue() / 1e3,
            histogram.getTotalCount(), rate);
    }
}
