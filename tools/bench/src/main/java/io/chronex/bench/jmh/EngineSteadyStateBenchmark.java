package io.chronex.bench.jmh;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.AccountSpec;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.workload.ExchangeCoreCsv;
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
 * The whole ec-1M stream replayed again and again on one engine, so that {@code -prof gc}'s
 * gc.alloc.rate.norm is the engine's allocation per command with nothing else in it: no engine is
 * built during measurement. Between passes each account's orders are mass-cancelled, which leaves
 * no live client order id and an empty book, so the next pass trades exactly as the first (checked
 * on every pass). An op is one command: the 1,001,000 rows plus the 1,000 MASS_CANCELs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, batchSize = 1)
@Measurement(iterations = 5, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
public class EngineSteadyStateBenchmark {
    private static final int SYMBOL = 40000;
    private static final int ACCOUNTS = 1000;
    private static final int ROWS = 1_001_000;
    /** exchange-core's trade count over the whole stream, pre-fill included (reference.txt: 12 + 40,266). */
    private static final long TRADES = 40_278;

    @Param("workloads/ec-1M/commands.csv.gz")
    public String file;

    private ExchangeCoreCsv stream;
    private MatchingEngine engine;
    private final Command command = new Command();
    private final Result result = new Result();

    @Setup(Level.Trial)
    public void load() throws IOException {
        final Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new IllegalStateException("cannot read " + path.toAbsolutePath() + " (run from the project root, or pass -p file=PATH)");
        }
        stream = ExchangeCoreCsv.load(path, SYMBOL);
        if (stream.size() != ROWS) {
            throw new IllegalStateException("expected " + ROWS + " rows, found " + stream.size());
        }
        // Accounts configured up front and room for the stream's ~1,100 resting orders, as an exchange would start.
        engine = new MatchingEngine(new EngineConfig(List.of(SymbolSpec.plain(SYMBOL)),
            LongStream.rangeClosed(1, ACCOUNTS).mapToObj(AccountSpec::unlimited).toList(), 0, true, null), 4096);
        // One pass outside measurement grows the result's lists and the engine's pools to their working size.
        replayAndClear();
    }

    /**
     * Bytes the benchmark thread allocated inside invocations, summed over an iteration: -prof gc
     * counts every thread of the JVM (JMH's own included), this counts only the engine's thread.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Allocation {
        public long engineThreadAllocatedBytes;
    }

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Benchmark
    @OperationsPerInvocation(ROWS + ACCOUNTS)
    public long replayWholeStreamOnOneEngine(final Allocation allocation) {
        final long thread = Thread.currentThread().getId();
        final long before = THREADS.getThreadAllocatedBytes(thread);
        final long trades = replayAndClear();
        allocation.engineThreadAllocatedBytes += THREADS.getThreadAllocatedBytes(thread) - before;
        return trades;
    }

    private long replayAndClear() {
        long trades = 0;
        for (int row = 0; row < ROWS; row++) {
            engine.apply(stream.commandAt(row, command), result);
            trades += result.fillCount();
        }
        for (long account = 1; account <= ACCOUNTS; account++) {
            engine.apply(command.massCancel(account, SYMBOL), result);
        }
        // A pass on a reused engine must be the same replay as on a fresh one, or this measures something else.
        if (trades != TRADES || engine.levelCount(SYMBOL, Side.BUY) != 0
            || engine.levelCount(SYMBOL, Side.SELL) != 0) {
            throw new IllegalStateException("replay on the reused engine diverged: " + trades + " trades, expected " + TRADES);
        }
        return trades;
    }
}
