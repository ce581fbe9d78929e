package io.chronex.bench;

import io.chronex.api.EngineConfig;
import io.chronex.queues.EngineConfigFile;
import io.chronex.engine.process.EngineService;
import io.chronex.queues.DataDirectory;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The engine process's loop without the process around it: drains a journal of commands into a
 * fresh events queue, pass after pass in one JVM, and prints each pass's rate and the median. What
 * one command costs the engine thread (Chronicle read, decode, match, encode, Chronicle append)
 * with the JIT warm and nothing else running; the whole pipeline, with a writer beside it, is
 * {@code bin/bench-pipeline}.
 */
public final class DrainBench {
    static final String USAGE = """
        Usage: bin/bench-drain [--passes N] --config FILE DATA_DIR

        Copies DATA_DIR/commands (a journal, e.g. from bin/inject) into a fresh data directory beside
        DATA_DIR and drains it with the engine loop in this JVM, N times (default 7), each pass into a
        new events queue; prints each pass's commands/s and the engine thread's CPU time per command
        (less disturbed by a busy host than the rate), and the medians of the passes after the first.
          --config FILE   the engine configuration the journal was written for
          --passes N      passes (default 7; the first is the JIT's warm-up and is left out of the median)
          --help          this text
        """;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private DrainBench() {
    }

    public static void main(final String[] argv) {
        Tool.run("bench-drain", USAGE, () -> {
            final Args args = Args.parse(argv, Set.of("--config", "--passes"), Set.of(), 1);
            final int passes = args.intNumber("--passes", 7, 2, Integer.MAX_VALUE);
            final Path config = args.readableFile("--config", "config/exchange-core-bench.yaml");
            final Path journal = Path.of(args.operand(0, "DATA_DIR"));
            if (!Files.isDirectory(journal.resolve("commands"))) {
                throw new Args.UsageException(journal + " has no commands/ journal");
            }
            drain(EngineConfigFile.load(config), journal, passes);
            return 0;
        });
    }

    private static void drain(final EngineConfig engineConfig, final Path journal, final int passes) throws IOException {
        final double[] rates = new double[passes];
        final long[] cpuNanos = new long[passes];
        final double[] cpuPerCommand = new double[passes];
        long commands = 0;
        for (int pass = 0; pass < passes; pass++) {
            final Path dir = Files.createTempDirectory(journal.toAbsolutePath().getParent(), "drain-");
            try {
                copy(journal.resolve("commands"), dir.resolve("commands"));
                Files.copy(journal.resolve("chronex-data.properties"), dir.resolve("chronex-data.properties"));
                final DataDirectory data = DataDirectory.open(dir);
                long answered = 0;
                final long nanos;
                try (EngineService service = new EngineService(data, engineConfig, 0, System.err::println)) {
                    final long cpuStart = THREADS.getCurrentThreadCpuTime();
                    final long start = System.nanoTime();
                    while (service.poll()) {
                        answered++;
                    }
                    nanos = System.nanoTime() - start;
                    cpuNanos[pass] = THREADS.getCurrentThreadCpuTime() - cpuStart;
                }
                commands = answered;
                rates[pass] = answered * 1e3 / nanos;
                cpuPerCommand[pass] = (double) cpuNanos[pass] / answered;
                System.out.printf(Locale.ROOT, "pass %d: %d commands in %.1f ms, %.3f M commands/s; engine thread CPU %.0f ns a command%n",
                    pass + 1, answered, nanos / 1e6, rates[pass], cpuPerCommand[pass]);
            } finally {
                delete(dir);
            }
        }
        final double[] timed = Arrays.copyOfRange(rates, 1, passes);
        Arrays.sort(timed);
        final double[] cpu = Arrays.copyOfRange(cpuPerCommand, 1, passes);
        Arrays.sort(cpu);
        System.out.printf(Locale.ROOT,
            "RESULT commands=%d passes=%d median_mcmds_per_s=%.3f min=%.3f max=%.3f median_cpu_ns_per_command=%.0f%n",
            commands, passes - 1, median(timed), timed[0], timed[timed.length - 1], median(cpu));
    }

    private static double median(final double[] sorted) {
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static void copy(final Path from, final Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private static void delete(final Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
