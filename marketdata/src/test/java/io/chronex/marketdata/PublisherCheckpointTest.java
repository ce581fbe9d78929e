package io.chronex.marketdata;

import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.marketdata.client.FeedClient;
import io.chronex.marketdata.client.FeedState;
import io.chronex.marketdata.publisher.PublisherAgent;
import io.chronex.marketdata.sbe.IncrementalDecoder;
import io.chronex.marketdata.sbe.MessageHeaderDecoder;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.CycleArchive;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.testing.Await;
import io.chronex.testing.FreePorts;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publisher's checkpoint: over events across a day roll, a publisher started from a mid-run checkpoint, one rebuilt from
 * the queue's first excerpt and one started from the checkpoint once the first day is archived all number the feed the
 * same (each incremental's seq names the excerpt the whole queue's count gives it), send the same books and end with the
 * same state; a damaged checkpoint is passed over with a warning while no day is archived and refused once one is.
 */
class PublisherCheckpointTest {
    private static final Pattern SENDING_FROM = Pattern.compile("sending from seq (\\d+)");

    @TempDir
    Path dir;
    private final SetTimeProvider clock = new SetTimeProvider(Instant.parse("2026-11-20T10:00:00Z"));
    private int runs;

    /** A feed configuration of its own (ports, media driver directory) for each run, so that no run waits on another's. */
    private FeedConfig config() throws Exception {
        final int port = FreePorts.run(2, Set.of());
        final Path file = dir.resolve("marketdata-" + ++runs + ".yaml");
        Files.writeString(file, String.join("\n",
            "incrementalPublication: " + FeedConfig.publication(port),
            "incrementalSubscription: " + FeedConfig.subscription(port),
            "snapshotPublication: " + FeedConfig.publication(port + 1),
            "snapshotSubscription: " + FeedConfig.subscription(port + 1),
            "snapshotIntervalMs: 100",
            "heartbeatIntervalMs: 50",
            "termLength: 4MiB",
            "aeronDir: " + dir.resolve("aeron-" + runs),
            "engineConfig: " + ProjectRoot.resolve("config/engine.yaml"),
            ""));
        return FeedConfig.load(file);
    }

    /** A publisher in this JVM, as bin/marketdata runs it: its own thread, stopped cleanly by close (or by its first failure). */
    private static final class Publisher implements AutoCloseable {
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AgentRunner runner;

        Publisher(final FeedConfig config, final Path data, final List<SymbolSpec> symbols) {
            final PublisherAgent agent = new PublisherAgent(config, DataDirectory.openReadOnly(data), symbols, lines::add);
            // As DutyCycle: a failure ends the loop (AgentRunner would otherwise call doWork again).
            final Agent once = new Agent() {
                @Override
                public void onStart() {
                    agent.onStart();
                }

                @Override
                public int doWork() {
                    try {
                        return agent.doWork();
                    } catch (final RuntimeException e) {
                        throw new AgentTerminationException(e);
                    }
                }

                @Override
                public void onClose() {
                    agent.onClose();
                }

                @Override
                public String roleName() {
                    return agent.roleName();
                }
            };
            runner = new AgentRunner(PublisherAgent.idleStrategy("backoff", config), e -> failure.compareAndSet(null,
                e.getCause() != null ? e.getCause() : e), null, once);
            AgentRunner.startOnThread(runner);
        }

        String awaitLine(final String part) throws Exception {
            Await.until("a log line with \"" + part + "\" (so far " + lines + ", failure " + failure.get() + ")", 60,
                () -> lines.stream().anyMatch(l -> l.contains(part)));
            return lines.stream().filter(l -> l.contains(part)).findFirst().orElseThrow();
        }

        Throwable awaitFailure() throws Exception {
            Await.until("the publisher refuses to start (log " + lines + ")", 60, () -> failure.get() != null);
            return failure.get();
        }

        @Override
        public void close() {
            runner.close();
        }
    }

    /** What one run sent: each incremental's seq and events index, seen by a client listening from before its start. */
    private static final class Watcher {
        private final Map<Long, Long> indexOfSeq = new HashMap<>();
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final IncrementalDecoder incremental = new IncrementalDecoder();
        private long conflicts;

        synchronized void seen(final org.agrona.DirectBuffer buffer, final int offset) {
            header.wrap(buffer, offset);
            if (header.templateId() != IncrementalDecoder.TEMPLATE_ID) {
                return;
            }
            incremental.wrapAndApplyHeader(buffer, offset, header);
            final Long before = indexOfSeq.put(incremental.seq(), incremental.eventsIndex());
            if (before != null && before != incremental.eventsIndex()) {
                conflicts++;
            }
        }

        synchronized boolean seen(final long seq) {
            return indexOfSeq.containsKey(seq);
        }

        synchronized void assertNumbering(final long[] expected, final String who) {
            assertEquals(0, conflicts, who + ": a seq sent for two excerpts");
            assertFalse(indexOfSeq.isEmpty(), who + ": sent nothing");
            indexOfSeq.forEach((seq, index) -> assertEquals(expected[seq.intValue()], index,
                who + ": seq " + seq + " names events index " + Long.toHexString(index)));
        }
    }

    /** The whole queue's numbering: [n] is the events index of the n-th (from 1) excerpt that carries market data. */
    private static long[] numbering(final Path data) {
        final List<Long> indices = new ArrayList<>();
        indices.add(-1L);
        try (SingleChronicleQueue events = DataDirectory.openReadOnly(data).events();
             EventTail tail = new EventTail(events.createTailer())) {
            final EventTail.Handler count = (final long index, final EventHeader h, final Result result) -> {
                if (FeedEncoder.carriesMarketData(result)) {
                    indices.add(index);
                }
            };
            while (tail.poll(count, 4096) > 0) {
                assertEquals(0, tail.unreadable());
            }
        }
        return indices.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Runs a publisher over {@code data} with a client listening from before it starts, until the client is in sync at the
     * last events index, and stops it; returns its log. The numbering it sent and the client's books are checked.
     */
    private List<String> publishAndCheck(final Path data, final ExchangeWriter writer, final long[] expected, final String who)
        throws Exception {
        final FeedConfig config = config();
        final Watcher watcher = new Watcher();
        final FeedClient client = new FeedClient(config, 0, 0);
        client.observeIncrementals((buffer, offset, length, h) -> watcher.seen(buffer, offset));
        final List<String> log;
        try (ClientRunner listening = new ClientRunner(client, who + "-client");
             Publisher publisher = new Publisher(config, data, writer.config().symbols())) {
            publisher.awaitLine("marketdata: rebuilt from ");
            // The incrementals sent again after the start, through the last: a client in sync from the snapshots alone is not enough.
            Await.until(who + ": the last incremental seen, and the client in sync at the last events index", 60,
                () -> watcher.seen(expected.length - 1) && listening.syncedAt(writer.lastIndex()));
            final FeedState state = listening.stop().state();
            assertEquals(expected.length - 1, state.lastSeq(), who + ": the last seq is the queue's count of market-data excerpts");
            assertEquals(0, state.epochChanges(), who + ": one numbering");
            for (int slot = 0; slot < writer.config().symbols().size(); slot++) {
                final SymbolSpec symbol = writer.config().symbols().get(slot);
                assertEquals(writer.book(symbol.id()), ClientRunner.book(state, symbol.id()), who + ": " + symbol.name());
                assertEquals(writer.halted(slot), state.symbol(symbol.name()).halted(), who + ": " + symbol.name() + " halted");
            }
            log = publisher.lines;
        }
        assertFalse(log.stream().anyMatch(l -> l.contains("new numbering")), who + ": " + log);
        watcher.assertNumbering(expected, who + " (log " + log + ")");
        return log;
    }

    /** The publisher refuses to start over {@code data}; returns why. */
    private String refused(final Path data, final EngineConfig engine) throws Exception {
        try (Publisher publisher = new Publisher(config(), data, engine.symbols())) {
            final Throwable failure = publisher.awaitFailure();
            assertTrue(failure instanceof IllegalStateException, failure::toString);
            assertFalse(publisher.lines.stream().anyMatch(l -> l.contains("rebuilt from")), publisher.lines.toString());
            return failure.getMessage();
        }
    }

    private static String line(final List<String> log, final String part) {
        return log.stream().filter(l -> l.contains(part)).findFirst()
            .orElseThrow(() -> new AssertionError("no \"" + part + "\" in " + log));
    }

    private static ReaderCheckpoint.Checkpoint checkpoint(final Path data) throws Exception {
        return ReaderCheckpoint.read(checkpointFile(data), ReaderCheckpoint.PUBLISHER, 0);
    }

    private static Path checkpointFile(final Path data) {
        return data.resolve("marketdata").resolve(ReaderCheckpoint.FILE);
    }

    private static byte[] body(final ReaderCheckpoint.Checkpoint checkpoint) {
        final ByteBuffer body = checkpoint.body().duplicate();
        final byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        return bytes;
    }

    private static long sendingFrom(final String line) {
        final Matcher m = SENDING_FROM.matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1));
    }

    /** Puts a saved file in place of the publisher's own (none when {@code saved} is null). */
    private static void restore(final Path saved, final Path file) throws Exception {
        if (saved == null) {
            Files.deleteIfExists(file);
        } else {
            Files.copy(saved, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void aStartFromTheCheckpointNumbersAndPublishesAsAStartFromTheQueuesFirstExcerptAlsoWithTheDaysBeforeItArchived()
        throws Exception {
        final EngineConfig engine = EngineConfigFile.load(ProjectRoot.resolve("config/engine.yaml"));
        final Path data = dir.resolve("data");
        final Path status = data.resolve("marketdata").resolve("status");
        final ExchangeWriter writer = new ExchangeWriter(engine, DataDirectory.open(data).withClock(clock), 21);
        final Path startCheckpoint = dir.resolve("checkpoint-start");
        final Path midCheckpoint = dir.resolve("checkpoint-mid");
        final Path statusAfterFirst = dir.resolve("status-after-first");
        final long firstDayLast;
        try (writer) {
            writer.write(3_000, 0);                                               // 2026-11-20
            firstDayLast = writer.lastIndex();
            try (Publisher first = new Publisher(config(), data, engine.symbols())) {
                assertTrue(first.awaitLine("marketdata: rebuilt from ").contains("rebuilt from the events queue through "
                    + Long.toHexString(firstDayLast)), first.lines.toString());
                Await.until("the checkpoint at start", 30, () -> checkpoint(data) != null
                    && checkpoint(data).header().eventsIndex() == firstDayLast);
                Files.copy(checkpointFile(data), startCheckpoint);
                clock.advanceMillis(TimeUnit.DAYS.toMillis(1));                   // 2026-11-21
                writer.write(1, 0);
                final long dayRoll = writer.lastIndex();
                assertEquals(ArchivedCycles.cycleOfIndex(firstDayLast) + 1, ArchivedCycles.cycleOfIndex(dayRoll));
                Await.until("the checkpoint at the day's first excerpt", 30, () -> checkpoint(data).header().eventsIndex() == dayRoll);
                Files.copy(checkpointFile(data), midCheckpoint);
                // Fewer market-data excerpts on the second day than a restart sends again: those before reach into the first.
                writer.write(500, 0);
                Await.until("the first publisher through the last excerpt", 60, () -> MarketDataStatusFile.read(status) != null
                    && MarketDataStatusFile.read(status).lastEventsIndex() == writer.lastIndex());
            }
            assertEquals(writer.lastIndex(), checkpoint(data).header().eventsIndex(), "the checkpoint at a clean stop");
        }
        final byte[] closed = body(checkpoint(data));
        Files.copy(status, statusAfterFirst);
        final long[] expected = numbering(data);
        final String last = Long.toHexString(writer.lastIndex());
        final String mid = Long.toHexString(ReaderCheckpoint.read(midCheckpoint, ReaderCheckpoint.PUBLISHER, 0).header().eventsIndex());

        // (i) From the mid-run checkpoint, and from the queue's first excerpt (the checkpoint damaged: a warning, no day archived).
        restore(midCheckpoint, checkpointFile(data));
        restore(statusAfterFirst, status);
        final String fromCheckpoint = line(publishAndCheck(data, writer, expected, "from the checkpoint"), "rebuilt from");
        assertTrue(fromCheckpoint.contains("rebuilt from checkpoint through " + mid + " (500 excerpts read after it)"), fromCheckpoint);
        assertArrayEquals(closed, body(checkpoint(data)), "the state at a clean stop, from the checkpoint");

        final byte[] damaged = Files.readAllBytes(midCheckpoint);
        damaged[damaged.length - 3] ^= 0x10;
        Files.write(checkpointFile(data), damaged);
        restore(statusAfterFirst, status);
        final List<String> log = publishAndCheck(data, writer, expected, "from the queue's start");
        assertTrue(line(log, "WARNING").contains("cannot be used (" + checkpointFile(data) + ": its state's checksum does not match"),
            log.toString());
        final String fromStart = line(log, "rebuilt from");
        assertTrue(fromStart.contains("rebuilt from the events queue through " + last), fromStart);
        assertEquals(sendingFrom(fromStart), sendingFrom(fromCheckpoint), "the same incrementals sent again");
        final String count = "excerpts (seq " + (expected.length - 1) + ")";
        assertTrue(fromStart.contains(count) && fromCheckpoint.contains(count), fromStart + "\n" + fromCheckpoint);
        assertArrayEquals(closed, body(checkpoint(data)), "the state at a clean stop, from the queue's start");
        // Restarted after that clean stop: its checkpoint is through the last excerpt, past the last one it sent.
        final String restarted = line(publishAndCheck(data, writer, expected, "after a clean stop"), "rebuilt from");
        assertTrue(restarted.contains("rebuilt from checkpoint through " + last + " (0 excerpts read after it)")
            && restarted.contains(count), restarted);
        assertEquals(sendingFrom(fromStart), sendingFrom(restarted), "the same incrementals sent again");

        // (ii) The first day archived: the start from the checkpoint needs nothing of it.
        new CycleArchive(data, dir.resolve("archive")).move("events", ArchivedCycles.fileOf(ArchivedCycles.cycleOfIndex(firstDayLast)),
            false);
        try (SingleChronicleQueue events = DataDirectory.open(data).events()) {
            events.refreshDirectoryListing();
        }
        restore(midCheckpoint, checkpointFile(data));
        restore(statusAfterFirst, status);
        final String archived = line(publishAndCheck(data, writer, expected, "with the first day archived"), "rebuilt from");
        assertTrue(archived.contains("rebuilt from checkpoint through " + mid + " (500 excerpts read after it)")
            && archived.contains(count) && archived.contains("before it are in archived days"), archived);
        assertTrue(sendingFrom(archived) > sendingFrom(fromStart), archived);
        assertArrayEquals(closed, body(checkpoint(data)), "the state at a clean stop, with the first day archived");

        // (iii) With a day archived, no checkpoint, a damaged one, or one from the archived day: refused, saying what to do.
        final Path saved = dir.resolve("checkpoint-end");
        Files.copy(checkpointFile(data), saved);
        restore(null, checkpointFile(data));
        final String none = refused(data, engine);
        assertTrue(none.contains("the events queue's days through 2026-11-20 were archived") && none.contains("there is no checkpoint")
            && none.contains("Restore " + checkpointFile(data)), none);
        Files.write(checkpointFile(data), damaged);
        final String broken = refused(data, engine);
        assertTrue(broken.contains("cannot be used: " + checkpointFile(data) + ": its state's checksum does not match"), broken);
        restore(startCheckpoint, checkpointFile(data));
        final String before = refused(data, engine);
        assertTrue(before.contains("has no excerpt at index " + Long.toHexString(firstDayLast)), before);
        restore(saved, checkpointFile(data));
        assertNotNull(checkpoint(data));
    }
}
