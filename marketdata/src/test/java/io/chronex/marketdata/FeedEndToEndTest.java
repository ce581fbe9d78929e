package io.chronex.marketdata;

import io.chronex.api.EngineConfig;
import io.chronex.api.SymbolSpec;
import io.chronex.marketdata.client.FeedClient;
import io.chronex.marketdata.client.FeedState;
import io.chronex.marketdata.client.MdClientMain;
import io.chronex.marketdata.publisher.PublisherMain;
import io.chronex.marketdata.sbe.IncrementalDecoder;
import io.chronex.marketdata.sbe.MessageHeaderDecoder;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.FreePorts;
import io.chronex.testing.ProjectRoot;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feed end to end: a real events queue (the matching engine's results), the publisher as a process of its own
 * (bin/marketdata's main), and clients over Aeron UDP on loopback, which must end with every symbol's book equal to the
 * engine's.
 */
class FeedEndToEndTest {
    @TempDir
    Path dir;

    private FeedConfig config(final String aeronDir) throws Exception {
        return config(aeronDir, "4MiB");
    }

    private FeedConfig config(final String aeronDir, final String termLength) throws Exception {
        final int port = FreePorts.run(2, Set.of());
        final Path file = dir.resolve("marketdata-" + aeronDir + ".yaml");
        Files.writeString(file, String.join("\n",
            "incrementalPublication: " + FeedConfig.publication(port),
            "incrementalSubscription: " + FeedConfig.subscription(port),
            "snapshotPublication: " + FeedConfig.publication(port + 1),
            "snapshotSubscription: " + FeedConfig.subscription(port + 1),
            "snapshotIntervalMs: 100",
            "heartbeatIntervalMs: 50",
            "termLength: " + termLength,
            "aeronDir: " + dir.resolve(aeronDir),
            "engineConfig: " + ProjectRoot.resolve("config/engine.yaml"),
            ""));
        return FeedConfig.load(file);
    }

    private Process startPublisher(final ChildJvm jvm, final Path configFile, final Path data, final String name) throws Exception {
        final Path log = dir.resolve(name + ".log");
        final Process publisher = jvm.start(PublisherMain.class.getName(),
            List.of("--config", configFile.toString(), "--data-dir", data.toString()), log);
        ChildJvm.awaitLine(publisher, log, "marketdata: rebuilt from ");
        return publisher;
    }

    private static void assertEqualToEngine(final ExchangeWriter writer, final FeedState state, final String who) {
        final EngineConfig config = writer.config();
        for (int slot = 0; slot < config.symbols().size(); slot++) {
            final SymbolSpec symbol = config.symbols().get(slot);
            assertEquals(writer.book(symbol.id()), ClientRunner.book(state, symbol.id()), who + ": " + symbol.name());
            assertEquals(writer.halted(slot), state.symbol(symbol.name()).halted(), who + ": " + symbol.name() + " halted");
        }
        assertTrue(writer.book(config.symbols().get(0).id()).length() > 100, "the books are not trivially empty");
    }

    @Test
    void aLateJoinerAndALossyClientEndWithTheEnginesBooks() throws Exception {
        final FeedConfig config = config("aeron");
        final EngineConfig engine = EngineConfigFile.load(config.engineConfig());
        final Path dataDir = dir.resolve("data");
        final DataDirectory data = DataDirectory.open(dataDir);
        try (ChildJvm jvm = new ChildJvm();
             ExchangeWriter writer = new ExchangeWriter(engine, data, 11)) {
            writer.write(1, 0);
            final Process publisher = startPublisher(jvm, dir.resolve("marketdata-aeron.yaml"), dataDir, "publisher");
            try (ClientRunner lossy = new ClientRunner(new FeedClient(config, 0.01, 7), "lossy")) {
                writer.write(100_000, 50_000);
                try (ClientRunner late = new ClientRunner(new FeedClient(config, 0, 0), "late")) {
                    writer.write(20_000, 50_000);
                    final long last = writer.lastIndex();
                    Await.until("both clients in sync at the last events index " + Long.toHexString(last), 60,
                        () -> lossy.syncedAt(last) && late.syncedAt(last));
                    final FeedState lossyState = lossy.stop().state();
                    final FeedState lateState = late.stop().state();
                    assertEqualToEngine(writer, lossyState, "lossy");
                    assertEqualToEngine(writer, lateState, "late");
                    final String stats = "gaps " + lossyState.gaps() + ", recoveries " + lossyState.recoveries() + ", overflows "
                        + lossyState.overflows() + ", received " + lossy.client().received() + ", dropped " + lossy.client().dropped();
                    System.out.println("lossy client: " + stats);
                    assertTrue(lossyState.gaps() > 0, "the lossy client saw gaps: " + stats);
                    assertTrue(lossyState.recoveries() > 1, "the lossy client recovered after joining: " + stats);
                    assertTrue(lateState.recoveries() >= 1);
                    final Path status = dataDir.resolve("marketdata").resolve("status");
                    Await.until("the status file shows the last index", 10,
                        () -> MarketDataStatusFile.read(status) != null && MarketDataStatusFile.read(status).lastEventsIndex() == last);
                    final MarketDataStatusFile.Snapshot written = MarketDataStatusFile.read(status);
                    assertEquals(null, written.problem(), "the publisher's own file, of the version the monitor reads");
                    assertEquals(publisher.pid(), written.pid(), "pid");
                    assertEquals(lateState.lastSeq(), written.lastSeq());
                    assertMdClientPrintsTheEnginesBooks(writer, last);
                }
            }
        }
    }

    /** bin/md-client's main, joining now that the flow has stopped: its RESULT lines say what the engine's books say. */
    private void assertMdClientPrintsTheEnginesBooks(final ExchangeWriter writer, final long last) throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            assertEquals(0, MdClientMain.run(new String[] {"--config", dir.resolve("marketdata-aeron.yaml").toString(), "--seconds", "1",
                "--every", "0"}, out));
        }
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("RESULT ")).toList();
        final List<String> expected = new ArrayList<>();
        for (final SymbolSpec symbol : writer.config().symbols()) {
            expected.add(writer.resultLine(symbol) + " last_events_index=" + Long.toHexString(last) + " gaps=0 recovered=1");
        }
        assertEquals(expected, lines);
    }

    /**
     * The client's media driver and Aeron conductor run on the polling thread: a client adds only Aeron's async executor
     * (asleep between rare tasks), and once Aeron is closed under it, a poll says so instead of reading nothing for ever.
     */
    @Test
    void aClientRunsOnTheCallersThreadAndSaysWhenItsAeronIsClosed() throws Exception {
        final Set<Thread> before = Thread.getAllStackTraces().keySet();
        final FeedClient client = new FeedClient(config("aeron-threads"), 0, 0);
        // Aeron's threads: its conductor's and executor's names start with "aeron", a driver's own threads are named after
        // its directory (md-client-<pid>-<n>); other threads the JVM may start meanwhile are not the client's.
        final Set<String> added = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t))
            .map(Thread::getName).filter(name -> name.startsWith("aeron") || name.contains("md-client-")).collect(Collectors.toSet());
        assertEquals(Set.of("aeron-executor"), added);
        client.poll();
        client.close();
        final IllegalStateException e = assertThrows(IllegalStateException.class, client::poll);
        assertTrue(e.getMessage().contains("open a new FeedClient"), e.getMessage());
    }

    @Test
    void aClientThatStopsReadingForLongerThanAeronsWindowSeesAGapAndRecovers() throws Exception {
        final FeedConfig config = config("aeron", "64KiB");
        final EngineConfig engine = EngineConfigFile.load(config.engineConfig());
        final Path dataDir = dir.resolve("data");
        try (ChildJvm jvm = new ChildJvm();
             ExchangeWriter writer = new ExchangeWriter(engine, DataDirectory.open(dataDir), 13)) {
            writer.write(1, 0);
            startPublisher(jvm, dir.resolve("marketdata-aeron.yaml"), dataDir, "publisher");
            try (FeedClient slow = new FeedClient(config, 0, 0)) {
                Await.until("the client in sync", 30, () -> {
                    slow.poll();
                    return slow.state().synced();
                });
                // 20,000 events, about 1.5 MB of incrementals, go by while the client reads nothing: far more than the
                // three 64 KiB terms Aeron can resend from.
                writer.write(20_000, 20_000);
                final long last = writer.lastIndex();
                Await.until("the client in sync at the last events index", 60, () -> {
                    slow.poll();
                    return slow.state().synced() && slow.state().lastEventsIndex() == last;
                });
                assertTrue(slow.state().gaps() > 0, "gaps " + slow.state().gaps());
                assertEqualToEngine(writer, slow.state(), "slow");
            }
        }
    }

    @Test
    void aPublisherKilledUnderLoadRestartsWithoutReusingASequenceNumber() throws Exception {
        final FeedConfig config = config("aeron-1");
        final EngineConfig engine = EngineConfigFile.load(config.engineConfig());
        final Path dataDir = dir.resolve("data");
        DataDirectory.open(dataDir).events().close();
        final SeqLedger ledger = new SeqLedger(200_000);
        try (ChildJvm jvm = new ChildJvm()) {
            final Process first = startPublisher(jvm, dir.resolve("marketdata-aeron-1.yaml"), dataDir, "publisher-1");
            final FeedClient watched = new FeedClient(config, 0, 0);
            watched.observeIncrementals((buffer, offset, length, header) -> ledger.record(buffer, offset, length));
            try (ClientRunner clean = new ClientRunner(watched, "clean");
                 ClientRunner lossy = new ClientRunner(new FeedClient(config, 0.01, 9), "lossy")) {
                final AtomicReference<ExchangeWriter> done = new AtomicReference<>();
                final AtomicReference<Throwable> failed = new AtomicReference<>();
                final Thread load = new Thread(() -> {
                    try {
                        try (ExchangeWriter writer = new ExchangeWriter(engine, DataDirectory.open(dataDir), 12)) {
                            writer.write(60_000, 20_000);
                            done.set(writer);
                        }
                    } catch (final Throwable e) {
                        failed.set(e);
                    }
                }, "load");
                load.start();
                Await.until("the clean client past seq 10000", 60, () -> clean.lastSeq() > 10_000 || failed.get() != null);
                // Its checkpoint at the day's first excerpt: the restart starts there.
                final Path checkpoint = dataDir.resolve("marketdata").resolve(ReaderCheckpoint.FILE);
                Await.until("the first publisher's checkpoint", 30, () -> Files.exists(checkpoint));
                first.destroyForcibly();
                first.waitFor();
                // Restarted at once on the same media driver directory, as bin/marketdata would be: the dead driver's is cleared.
                startPublisher(jvm, dir.resolve("marketdata-aeron-1.yaml"), dataDir, "publisher-2");
                assertTrue(Files.readString(dir.resolve("publisher-2.log")).contains("of a process that is gone removed"),
                    "the restarted publisher removed its killed predecessor's media driver directory");
                assertTrue(Files.readString(dir.resolve("publisher-2.log")).contains("marketdata: rebuilt from checkpoint through "),
                    "the restarted publisher started from its predecessor's checkpoint");
                load.join();
                if (failed.get() != null) {
                    throw new AssertionError("the load failed", failed.get());
                }
                final ExchangeWriter writer = done.get();
                final long last = writer.lastIndex();
                Await.until("both clients in sync at the last events index " + Long.toHexString(last), 60,
                    () -> clean.syncedAt(last) && lossy.syncedAt(last));
                final FeedState cleanState = clean.stop().state();
                final FeedState lossyState = lossy.stop().state();
                assertEqualToEngine(writer, cleanState, "clean");
                assertEqualToEngine(writer, lossyState, "lossy");
                assertEquals(0, ledger.conflicts, "sequence numbers that named two different messages");
                // Whether the kill landed after incrementals the publisher had not yet recorded as sent depends on where it
                // landed: when it did not, the overlap was not exercised this run (reported as skipped, not passed); the
                // checks above hold either way.
                org.junit.jupiter.api.Assumptions.assumeTrue(ledger.seenTwice > 0,
                    "the kill landed where the restarted publisher had nothing of its predecessor's to send again");
            }
        }
    }

    /** Every incremental sequence seen, with what it carried: the same sequence must always carry the same message. */
    private static final class SeqLedger {
        private final long[] digests;
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final IncrementalDecoder incremental = new IncrementalDecoder();
        private final CRC32 crc = new CRC32();
        private long conflicts;
        private long seenTwice;

        SeqLedger(final int capacity) {
            digests = new long[capacity];
        }

        void record(final DirectBuffer buffer, final int offset, final int length) {
            header.wrap(buffer, offset);
            if (header.templateId() != IncrementalDecoder.TEMPLATE_ID) {
                return;
            }
            incremental.wrapAndApplyHeader(buffer, offset, header);
            final int seq = (int) incremental.seq();
            // The events index, the engine's append time and the groups; not the publish time, which a resend renews.
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            crc.reset();
            crc.update(bytes, MessageHeaderDecoder.ENCODED_LENGTH + 8, 16);
            crc.update(bytes, MessageHeaderDecoder.ENCODED_LENGTH + 32, length - MessageHeaderDecoder.ENCODED_LENGTH - 32);
            final long digest = crc.getValue() | 1L << 40;
            if (digests[seq] == 0) {
                digests[seq] = digest;
            } else {
                seenTwice++;
                if (digests[seq] != digest) {
                    conflicts++;
                }
            }
        }
    }
}
