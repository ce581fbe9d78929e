package io.chronex.bench;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Fill;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.workload.ExchangeCoreFunding;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * bin/bench-engine: replays an exchange-core-format stream through the engine in-process, several
 * times, and prints throughput and per-command service-time percentiles. Every pass starts from an
 * empty engine and must end in the same state (a determinism check for free).
 */
public final class EngineBench {
    static final String USAGE = """
        Usage: bin/bench-engine [options] [FILE]

        Replays an exchange-core-format command CSV (plain or .gz; default workloads/ec-1M/commands.csv.gz,
        exchange-core's own 1M-command stream, see workloads/ec-1M/README.md)
        through the matching engine in this process, with every risk check off, and prints throughput
        and per-command latency percentiles. Each pass starts from an empty engine.

        Options:
          --warmup N           untimed passes first, to let the JIT compile the engine (default 10)
          --passes N           passes timed as a whole, for throughput (default 20)
          --latency-passes N   passes timing every command with System.nanoTime, for percentiles (default 3)
          --symbol ID          symbol id the stream's commands use (default 40000)
          --funds off|on|both  accounts' money (docs/engine.md, "Accounts"): off (default) replays with every
                               risk check off and no money, as exchange-core's order books alone; on funds every
                               account as exchange-core's benchmark does (workloads/ec-1M/reference.txt) and
                               replays with the FUNDS check on: every order held, every trade settled with
                               fees; both alternates passes of the two, funded first then the same assets
                               with FUNDS off, and prints their medians and ratio (deposits are not timed)
          --help               this text

        The last line is machine-readable:
          RESULT commands=N trades=N volume=N notional=N best_bid=P best_ask=P mcmds_per_s=X
        with totals over the whole stream (pre-fill included) and the median throughput pass.
        """;

    /** The repository's ec-1M stream, under the project root bin/ scripts pass as chronex.root. */
    static final Path DEFAULT_FILE = Path.of(System.getProperty("chronex.root", ".")).resolve("workloads/ec-1M/commands.csv.gz");

    private EngineBench() {
    }

    /** Settings from the command line. */
    record Options(Path file, int warmup, int passes, int latencyPasses, int symbol, String funds) {
    }

    /** What one replay of the stream produced; equal for every pass of a deterministic engine. */
    record Totals(long commands, long trades, long volume, long notional, long bestBid, long bestAsk, long stateHash) {
        String resultLine(final double mcmdsPerSecond) {
            return String.format(Locale.ROOT, "RESULT commands=%d trades=%d volume=%d notional=%d best_bid=%d best_ask=%d mcmds_per_s=%.2f",
                commands, trades, volume, notional, bestBid, bestAsk, mcmdsPerSecond);
        }
    }

    public static void main(final String[] argv) {
        Tool.run("bench-engine", USAGE, () -> {
            run(parse(argv), System.out);
            return 0;
        });
    }

    /**
     * The settings on a command line; no FILE is the repository's ec-1M.
     *
     * @throws Args.HelpRequested for --help or -h
     * @throws Args.UsageException for a wrong command line or a FILE that cannot be read
     */
    static Options parse(final String[] argv) {
        final Args args = Args.parse(argv, Set.of("--warmup", "--passes", "--latency-passes", "--symbol", "--funds"), Set.of(), 1);
        final String funds = args.string("--funds", "off");
        if (!Set.of("off", "on", "both").contains(funds)) {
            throw new Args.UsageException("--funds must be off, on or both, not '" + funds + "'");
        }
        final int warmup = args.intNumber("--warmup", 10, 0, Integer.MAX_VALUE);
        final int passes = args.intNumber("--passes", 20, 1, Integer.MAX_VALUE);
        final int latencyPasses = args.intNumber("--latency-passes", 3, 0, Integer.MAX_VALUE);
        final int symbol = args.intNumber("--symbol", 40000, 1, Integer.MAX_VALUE);
        return new Options(args.readableOperand(0, "FILE", DEFAULT_FILE), warmup, passes, latencyPasses, symbol, funds);
    }

    static Totals run(final Options options, final PrintStream out) throws IOException {
        out.printf(Locale.ROOT, "machine: %d cores, %s, Java %s (%s), max heap %d MiB%n",
            Runtime.getRuntime().availableProcessors(), cpuModel(), System.getProperty("java.version"),
            System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory() >> 20);
        final long loadStart = System.nanoTime();
        final ExchangeCoreCsv stream = ExchangeCoreCsv.load(options.file(), options.symbol());
        out.printf(Locale.ROOT, "loaded %,d commands from %s in %.1f s%n", stream.size(), options.file(),
            (System.nanoTime() - loadStart) / 1e9);

        if (options.funds().equals("both")) {
            return fundsSideBySide(stream, options, out);
        }
        final Mode mode = options.funds().equals("on") ? Mode.FUNDED : Mode.PLAIN;
        Totals reference = null;
        for (int pass = 0; pass < options.warmup(); pass++) {
            reference = check(reference, replay(stream, null, mode));
        }
        out.printf(Locale.ROOT, "warm-up: %d passes%n", options.warmup());

        final double[] rates = new double[options.passes()];
        for (int pass = 0; pass < options.passes(); pass++) {
            final Timed timed = timedReplay(stream, mode);
            reference = check(reference, timed.totals());
            final long elapsed = timed.nanos();
            rates[pass] = stream.size() / (elapsed / 1e3);
            out.printf(Locale.ROOT, "throughput pass %2d: %7.1f ms  %6.2f M commands/s%n", pass + 1, elapsed / 1e6, rates[pass]);
        }
        final double[] sorted = rates.clone();
        Arrays.sort(sorted);
        final double median = sorted[sorted.length / 2];
        out.printf(Locale.ROOT, "throughput (whole stream, single thread): median %.2f, best %.2f, worst %.2f M commands/s"
            + " over %d passes%n",
            median, sorted[sorted.length - 1], sorted[0], sorted.length);

        if (options.latencyPasses() > 0) {
            final Histogram histogram = new Histogram(10_000_000_000L, 3);
            for (int pass = 0; pass < options.latencyPasses(); pass++) {
                reference = check(reference, replay(stream, histogram, mode));
            }
            out.printf(Locale.ROOT, "per-command service time, ns (%d passes, %,d samples;"
                + " each includes one System.nanoTime call, ~%d ns here):%n",
                options.latencyPasses(), histogram.getTotalCount(), nanoTimeCost());
            out.printf(Locale.ROOT, "  p50 %d  p90 %d  p99 %d  p99.9 %d  p99.99 %d  max %d  mean %.1f%n",
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getValueAtPercentile(99.99), histogram.getMaxValue(), histogram.getMean());
            out.println("  (a closed loop: each command starts when the last ends, so there is no queueing to correct for)");
        }
        out.printf(Locale.ROOT, "final state hash %016x (identical in every pass)%n", reference.stateHash());
        out.println(reference.resultLine(median));
        return reference;
    }

    /** How the engine is set up for a pass. */
    enum Mode {
        /** Every risk check off, no assets: the order books alone. */
        PLAIN,
        /** Accounts funded as exchange-core's benchmark funds them, the FUNDS check on. */
        FUNDED,
        /** The same assets and deposits, the FUNDS check off. */
        UNCHECKED
    }

    record Timed(Totals totals, long nanos) {
    }

    /**
     * Alternates a funded pass and an unchecked one (same assets and deposits, FUNDS off), warm-up included, so
     * that both see the same machine; prints each arm's median and their ratio.
     */
    private static Totals fundsSideBySide(final ExchangeCoreCsv stream, final Options options, final PrintStream out) {
        Totals funded = null;
        Totals unchecked = null;
        for (int pass = 0; pass < options.warmup(); pass++) {
            funded = check(funded, replay(stream, null, Mode.FUNDED));
            unchecked = check(unchecked, replay(stream, null, Mode.UNCHECKED));
        }
        out.printf(Locale.ROOT, "warm-up: %d passes of each%n", options.warmup());
        final double[] on = new double[options.passes()];
        final double[] off = new double[options.passes()];
        for (int pass = 0; pass < options.passes(); pass++) {
            final Timed a = timedReplay(stream, Mode.FUNDED);
            funded = check(funded, a.totals());
            final Timed b = timedReplay(stream, Mode.UNCHECKED);
            unchecked = check(unchecked, b.totals());
            on[pass] = stream.size() / (a.nanos() / 1e3);
            off[pass] = stream.size() / (b.nanos() / 1e3);
            out.printf(Locale.ROOT, "pass %2d: funds on %6.2f M commands/s, off %6.2f M commands/s%n", pass + 1, on[pass], off[pass]);
        }
        Arrays.sort(on);
        Arrays.sort(off);
        final double medianOn = on[on.length / 2];
        final double medianOff = off[off.length / 2];
        out.printf(Locale.ROOT, "median over %d alternating passes: funds on %.2f, off %.2f M commands/s: on/off %.2f%n",
            on.length, medianOn, medianOff, medianOn / medianOff);
        if (funded.trades() != unchecked.trades() || funded.notional() != unchecked.notional()) {
            throw new IllegalStateException("funds changed the trades (every order is paid for here): " + funded + " vs " + unchecked);
        }
        out.println(String.format(Locale.ROOT, "RESULT funds_on_mcmds_per_s=%.2f funds_off_mcmds_per_s=%.2f ratio=%.3f trades=%d",
            medianOn, medianOff, medianOn / medianOff, funded.trades()));
        return funded;
    }

    /** A replay whose deposits (funded modes) are applied before the clock starts. */
    private static Timed timedReplay(final ExchangeCoreCsv stream, final Mode mode) {
        final MatchingEngine engine = engine(stream, mode);
        final long start = System.nanoTime();
        final Totals totals = replay(engine, stream, null);
        return new Timed(totals, System.nanoTime() - start);
    }

    /** Replays the whole stream on a fresh engine; records each command's service time when histogram is given. */
    static Totals replay(final ExchangeCoreCsv stream, final Histogram histogram, final Mode mode) {
        return replay(engine(stream, mode), stream, histogram);
    }

    /** A fresh engine for the mode, its accounts funded already where the mode has money. */
    private static MatchingEngine engine(final ExchangeCoreCsv stream, final Mode mode) {
        if (mode == Mode.PLAIN) {
            return new MatchingEngine(EngineConfig.noRiskChecks(SymbolSpec.plain(stream.symbol())));
        }
        final MatchingEngine engine = new MatchingEngine(mode == Mode.FUNDED ? ExchangeCoreFunding.config(stream.symbol())
            : ExchangeCoreFunding.unchecked(stream.symbol()));
        final Result result = new Result();
        ExchangeCoreFunding.deposits(stream.accounts(), new Command(), c -> {
            engine.apply(c, result);
            if (result.isRejected()) {
                throw new IllegalStateException(c + " refused: " + result.rejectReason);
            }
        });
        return engine;
    }

    private static Totals replay(final MatchingEngine engine, final ExchangeCoreCsv stream, final Histogram histogram) {
        final Command command = new Command();
        final Result result = new Result();
        long trades = 0;
        long volume = 0;
        long notional = 0;
        final int size = stream.size();
        for (int row = 0; row < size; row++) {
            stream.commandAt(row, command);
            if (histogram == null) {
                engine.apply(command, result);
            } else {
                final long start = System.nanoTime();
                engine.apply(command, result);
                histogram.recordValue(System.nanoTime() - start);
            }
            for (int i = 0; i < result.fillCount(); i++) {
                final Fill fill = result.fill(i);
                trades++;
                volume += fill.quantity;
                notional += fill.quantity * fill.price;
            }
        }
        return new Totals(size, trades, volume, notional, engine.bestBid(stream.symbol()), engine.bestAsk(stream.symbol()),
            engine.stateHash());
    }

    private static Totals check(final Totals reference, final Totals pass) {
        if (reference != null && !reference.equals(pass)) {
            throw new IllegalStateException("non-deterministic replay: " + reference + " then " + pass);
        }
        return pass;
    }

    private static long nanoTimeCost() {
        final int calls = 1_000_000;
        long sink = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            sink += System.nanoTime();
        }
        final long cost = (System.nanoTime() - start) / calls;
        return sink == 42 ? cost + 1 : cost;
    }

    private static String cpuModel() {
        try {
            final List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (final String line : lines) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (final IOException | RuntimeException ignored) {
            // Not Linux: the OS name will do.
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}
