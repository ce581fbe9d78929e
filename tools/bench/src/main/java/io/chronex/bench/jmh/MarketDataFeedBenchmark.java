package io.chronex.bench.jmh;

import io.chronex.api.AccountSpec;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.marketdata.FeedEncoder;
import io.chronex.marketdata.client.FeedState;
import io.chronex.marketdata.sbe.IncrementalEncoder;
import io.chronex.marketdata.sbe.MessageHeaderEncoder;
import io.chronex.queues.book.Books;
import io.chronex.workload.ExchangeCoreCsv;
import org.agrona.ExpandableDirectByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * The feed's steady state, for {@code -prof gc} (gc.alloc.rate.norm = bytes per op, expected 0) and its cost per message.
 * The input is the ec-1M stream's first {@code rows} commands and a mass cancel of every account (which empties the book,
 * so each pass trades and moves levels exactly as the first), on one {@link MatchingEngine}:
 * <ul>
 *   <li>{@code engineOnly}: one command through the engine, the baseline the next one adds to;</li>
 *   <li>{@code publisherPerCommand}: the same, then what the publisher does per events excerpt without Aeron and the
 *       queue: {@link FeedEncoder#carriesMarketData}, the incremental into its reused buffer, the level changes into
 *       {@link Books} (PublisherAgent.onEvent and applyToBooks);</li>
 *   <li>{@code clientPerIncremental}: one incremental of that stream (encoded once at set-up, its sequence number
 *       rewritten each pass) handed to an in-sync {@link FeedState}: decode, gap check, books applied.</li>
 * </ul>
 * An op is one command (the first two) or one incremental (the third).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"})
public class MarketDataFeedBenchmark {
    private static final int SYMBOL = 40000;
    private static final int ACCOUNTS = 1000;
    private static final int MAX_MESSAGE = 2 * 1024 * 1024;
    private static final int SEQ_AT = MessageHeaderEncoder.ENCODED_LENGTH + IncrementalEncoder.seqEncodingOffset();

    @Param("workloads/ec-1M/commands.csv.gz")
    public String file;

    /** Commands of the stream per pass (then one mass cancel per account). */
    @Param("200000")
    public int rows;

    private ExchangeCoreCsv stream;
    private MatchingEngine engine;
    private final Command command = new Command();
    private final Result result = new Result();
    private int next;
    private long seq;
    private long eventsIndex;

    private final FeedEncoder encoder = new FeedEncoder();
    private final Books books = new Books();

    /** Every incremental of one pass, one after another, each preceded by its length. */
    private final ExpandableDirectByteBuffer messages = new ExpandableDirectByteBuffer(64 * 1024 * 1024);
    private int messagesLength;
    private int messageAt;
    private long clientSeq;
    private final FeedState client = new FeedState(1024 * 1024);

    @Setup(Level.Trial)
    public void load() throws IOException {
        final Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new IllegalStateException("cannot read " + path.toAbsolutePath() + " (run from the project root, or pass -p file=PATH)");
        }
        stream = ExchangeCoreCsv.load(path, SYMBOL);
        rows = Math.min(rows, stream.size());
        engine = new MatchingEngine(new EngineConfig(List.of(SymbolSpec.plain(SYMBOL)),
            LongStream.rangeClosed(1, ACCOUNTS).mapToObj(AccountSpec::unlimited).toList(), 0, true, null), 4096);
        captureOnePass();
        joinClient();
        // Passes outside measurement grow the engine's pools, the books and the client to their working size.
        for (int i = 0; i < 2 * (rows + ACCOUNTS); i++) {
            publisherPerCommand();
            clientPerIncremental();
        }
    }

    /** One pass through the engine, every incremental the publisher would send written into {@link #messages}. */
    private void captureOnePass() {
        final FeedEncoder capture = new FeedEncoder();
        long captureSeq = 0;
        for (int i = 0; i < rows + ACCOUNTS; i++) {
            nextCommand();
            if (FeedEncoder.carriesMarketData(result)) {
                final int length = capture.incremental(++captureSeq, i, System.nanoTime(), System.nanoTime(), result, MAX_MESSAGE);
                messages.putInt(messagesLength, length);
                messages.putBytes(messagesLength + Integer.BYTES, capture.buffer(), 0, length);
                messagesLength += Integer.BYTES + length;
            }
        }
        if (messagesLength == 0) {
            throw new IllegalStateException("the first " + rows + " commands carry no market data");
        }
    }

    /** An empty book's snapshot at seq 0: the client is in sync and takes the incrementals from seq 1. */
    private void joinClient() {
        final SymbolSpec spec = SymbolSpec.plain(SYMBOL);
        final FeedEncoder snapshot = new FeedEncoder();
        final int length = snapshot.snapshot(0, 0, SYMBOL, spec.name(), spec.priceScale(), 1, false, null, MAX_MESSAGE);
        client.onMessage(snapshot.buffer(), 0, length);
        if (!client.synced()) {
            throw new IllegalStateException("the client did not come into sync on the snapshot");
        }
    }

    private void nextCommand() {
        if (next < rows) {
            engine.apply(stream.commandAt(next, command), result);
        } else {
            engine.apply(command.massCancel(next - rows + 1, SYMBOL), result);
        }
        next = next + 1 == rows + ACCOUNTS ? 0 : next + 1;
    }

    @Benchmark
    public int engineOnly() {
        nextCommand();
        return result.levelChangeCount();
    }

    @Benchmark
    public int publisherPerCommand() {
        nextCommand();
        eventsIndex++;
        if (!FeedEncoder.carriesMarketData(result)) {
            return 0;
        }
        for (int i = 0; i < result.levelChangeCount(); i++) {
            books.apply(result.levelChange(i));
        }
        final long now = System.nanoTime();
        return encoder.incremental(++seq, eventsIndex, now, now, result, MAX_MESSAGE);
    }

    @Benchmark
    public long clientPerIncremental() {
        final int length = messages.getInt(messageAt);
        final int at = messageAt + Integer.BYTES;
        messages.putLong(at + SEQ_AT, ++clientSeq);
        client.onMessage(messages, at, length);
        messageAt = at + length == messagesLength ? 0 : at + length;
        return client.applied();
    }
}
