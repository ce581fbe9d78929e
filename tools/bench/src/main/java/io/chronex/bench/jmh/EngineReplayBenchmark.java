package io.chronex.bench.jmh;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.AccountSpec;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.workload.ExchangeCoreFunding;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * One engine thread replaying exchange-core's ec-1M stream. An invocation replays the benchmark
 * phase (1,000,000 commands) on a fresh engine that holds the pre-fill book and was sized up front
 * for the stream; one op is one command. {@code -prof gc}'s gc.alloc.rate.norm counts the
 * per-invocation set-up too (a new engine and the pre-fill, about 1.07 MB per million commands), so
 * the replay loop's own allocation is measured exactly with the thread's allocation counter and
 * reported as the auxiliary counters replayAllocatedBytes / replayedCommands.
 * {@link EngineSteadyStateBenchmark} builds no engine while measuring, so its gc.alloc.rate.norm is clean.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, batchSize = 1)
@Measurement(iterations = 5, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
public class EngineReplayBenchmark {
    private static final int SYMBOL = 40000;
    private static final int COMMANDS = 1_000_000;

    @Param("workloads/ec-1M/commands.csv.gz")
    public String file;

    /** on: accounts funded as exchange-core's benchmark funds them and the FUNDS check on (-p funds=on); off: no money. */
    @Param("off")
    public String funds;

    private ExchangeCoreCsv stream;
    private int firstBenchmarkRow;
    private MatchingEngine engine;
    private final Command command = new Command();
    private final Result result = new Result();

    /** The stream's symbol and its 1,000 accounts configured up front, as an exchange would, every risk check off. */
    private final EngineConfig config = new EngineConfig(List.of(SymbolSpec.plain(SYMBOL)),
        LongStream.rangeClosed(1, 1000).mapToObj(AccountSpec::unlimited).toList(), 0, true, null);

    @Setup(Level.Trial)
    public void load() throws IOException {
        final Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new IllegalStateException("cannot read " + path.toAbsolutePath() + " (run from the project root, or pass -p file=PATH)");
        }
        stream = ExchangeCoreCsv.load(path, SYMBOL);
        while (stream.isFillPhase(firstBenchmarkRow)) {
            firstBenchmarkRow++;
        }
        if (stream.size() - firstBenchmarkRow != COMMANDS) {
            throw new IllegalStateException("expected " + COMMANDS + " benchmark-phase commands, found "
                + (stream.size() - firstBenchmarkRow));
        }
    }

    /** A fresh engine holding the pre-fill book (and, with funds, every account's deposits), sized up front for ~1,100 orders. */
    @Setup(Level.Invocation)
    public void prefill() {
        if (funds.equals("on")) {
            final EngineConfig funded = ExchangeCoreFunding.config(SYMBOL);
            engine = new MatchingEngine(new EngineConfig(funded.symbols(), config.accounts(), funded.riskChecks(), true, null,
                funded.assets()), 4096);
            ExchangeCoreFunding.deposits(stream.accounts(), command, c -> engine.apply(c, result));
        } else {
            engine = new MatchingEngine(config, 4096);
        }
        for (int row = 0; row < firstBenchmarkRow; row++) {
            engine.apply(stream.commandAt(row, command), result);
        }
    }

    /** Bytes the replay loop itself allocated, and how many commands it applied, summed over an iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Allocation {
        public long replayAllocatedBytes;
        public long replayedCommands;
    }

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Benchmark
    @OperationsPerInvocation(COMMANDS)
    public long replayBenchmarkPhase(final Allocation allocation) {
        final long thread = Thread.currentThread().getId();
        final long before = THREADS.getThreadAllocatedBytes(thread);
        long fills = 0;
        final int size = stream.size();
        for (int row = firstBenchmarkRow; row < size; row++) {
            engine.apply(stream.commandAt(row, command), result);
            fills += result.fillCount();
        }
        allocation.replayAllocatedBytes += THREADS.getThreadAllocatedBytes(thread) - before;
        allocation.replayedCommands += size - firstBenchmarkRow;
        return fills;
    }
}
