package io.chronex.bench.jmh;

import io.chronex.bench.InProcessExchange;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Client → gateway → journal → engine → events → gateway → client, all in the benchmark thread on
 * real sockets and queues: one op is a pair of orders that trade (two NewOrderSingles in, four
 * ExecutionReports out). With {@code -prof gc}, gc.alloc.rate.norm is the bytes the whole path
 * allocates per pair. Topology: one thread, no idle waits, so this is service time, not the
 * multi-process latency bin/bench-fix measures.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class GatewayRoundTripBenchmark {
    private Path dir;
    private InProcessExchange exchange;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("chronex-jmh-gateway");
        exchange = new InProcessExchange(dir, Path.of(System.getProperty("chronex.root", ".")).toAbsolutePath().normalize());
    }

    @Benchmark
    public void tradingPairThroughTheWholeExchange() throws Exception {
        exchange.pair();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        exchange.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
