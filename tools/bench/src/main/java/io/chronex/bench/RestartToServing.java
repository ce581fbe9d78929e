package io.chronex.bench;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * bin/bench-restart: how long from starting the engine process to serving again, measured end to
 * end. Each run starts bin/engine on the data directory, appends one command the moment the
 * process is launched, and stops the clock when that command's answer is in the events queue;
 * then it kills the engine with SIGKILL, so the next run recovers from the same snapshot and a
 * journal one command longer.
 */
public final class RestartToServing {
    static final String USAGE = """
        Usage: bin/bench-restart --data-dir DIR --config FILE [--runs N]

        Restarts the engine on DIR N times (default 5) and prints, for each, the time from launching
        bin/engine to the answer of a command appended at launch: restart to serving, end to end.
        Each run ends with kill -9, so every restart recovers like after a crash: newest snapshot,
        then the journal after it. Stop any engine on DIR first. Give the journal a recent snapshot
        beforehand (stop a running engine with SIGTERM, which writes one) to measure the
        "with a recent snapshot" case; delete DIR/snapshots/snapshot-* to measure a full replay.
        """;

    private RestartToServing() {
    }

    public static void main(final String[] argv) {
        Tool.run("bench-restart", USAGE, () -> {
            final Args args = Args.parse(argv, "--data-dir", "--config", "--runs");
            final Path dataDir = Path.of(args.required("--data-dir", null));
            final Path config = args.readableFile("--config", "config/exchange-core-bench.yaml");
            run(DataDirectory.openForTool(dataDir), config, args.intNumber("--runs", 5, 1, 1000));
            return 0;
        });
    }

    private static void run(final DataDirectory data, final Path config, final int runs) throws Exception {
        final String engine = Path.of(System.getProperty("chronex.root", ".")).resolve("bin/engine").toString();
        final double[] millis = new double[runs];
        final Command command = new Command().cancel(1, 999_999_999_999L);
        final Hops hops = new Hops();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final ExcerptAppender appender = commands.createAppender();
            final ExcerptTailer tailer = events.createTailer().toEnd();
            for (int run = 0; run < runs; run++) {
                final long start = System.nanoTime();
                final Process process = new ProcessBuilder(engine, "--data-dir", data.root().toString(), "--config", config.toString(),
                    "--snapshot-every", "0").redirectErrorStream(true)
                    .redirectOutput(new File(data.root().resolve("bench-restart-engine.out").toString())).start();
                hops.clear();
                hops.gatewayAppendNanos = System.nanoTime();
                final long index;
                try (DocumentContext dc = appender.writingDocument()) {
                    CommandCodec.write(dc.wire().bytes(), command, hops);
                }
                index = appender.lastIndexAppended();
                boolean answered = false;
                final long deadline = start + TimeUnit.SECONDS.toNanos(120);
                while (!answered && System.nanoTime() < deadline) {
                    try (DocumentContext dc = tailer.readingDocument()) {
                        if (!dc.isPresent()) {
                            if (!process.isAlive()) {
                                throw new Tool.Failure("the engine exited (code " + process.exitValue() + "); see "
                                    + data.root().resolve("bench-restart-engine.out"));
                            }
                            // Poll gently: a spinning timer would take one of the box's two CPUs from the engine starting up.
                            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                            continue;
                        }
                        answered = EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK && header.commandIndex == index;
                    }
                }
                final long end = System.nanoTime();
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                if (!answered) {
                    throw new Tool.Failure("no answer within 120 s");
                }
                millis[run] = (end - start) / 1e6;
                System.out.printf(Locale.ROOT, "run %d: launch to answer %.0f ms%n", run + 1, millis[run]);
            }
        }
        final double[] sorted = millis.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "RESULT runs=%d restart_to_serving_ms median=%.0f min=%.0f max=%.0f%n", runs,
            sorted[runs / 2], sorted[0],
            sorted[runs - 1]);
    }
}
