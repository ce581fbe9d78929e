package io.chronex.engine.cluster;

import io.aeron.cluster.service.Cluster;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.RejectReason;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.bridge.BridgeAgent;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.IdleStrategies;
import io.chronex.testing.Await;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Three members in one JVM, a gateway host's journal and its bridge: every command is applied once on every node
 * across a leader change, the host gets every result once in journal order, a restarted member catches up, and
 * every node's results equal those of the engine core applying the same commands alone.
 */
class ThreeNodeClusterTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();

    @Test
    void aLeaderChangeLosesAndRepeatsNothing() throws Exception {
        final ClusterConfig cluster = ClusterHarness.config(tmp, 3);
        final ClusterNode[] nodes = new ClusterNode[3];
        final DataDirectory[] dirs = new DataDirectory[3];
        try {
            for (int id = 0; id < 3; id++) {
                dirs[id] = DataDirectory.open(tmp.resolve("node-" + id));
                nodes[id] = start(cluster, id, dirs[id]);
            }
            final DataDirectory host = DataDirectory.open(tmp.resolve("host"));
            final SplittableRandom random = new SplittableRandom(7);
            final List<Long> journal = new ArrayList<>(append(host, 150, random, 0));
            journal.add(appendJunk(host)); // answered by the bridge itself, in its turn, as bin/engine would: MALFORMED_COMMAND
            journal.addAll(append(host, 149, random, 150));
            try (RunningBridge bridge = new RunningBridge(cluster, 1, host)) {
                Await.until("the host has 300 results", 60, () -> bridge.answeredThrough() == journal.get(journal.size() - 1));
                final int leader = leaderOf(nodes);
                nodes[leader].close();
                nodes[leader] = null;
                journal.addAll(append(host, 300, random, 300));
                Await.until("the host has 600 results after the leader change", 60,
                    () -> bridge.answeredThrough() == journal.get(journal.size() - 1));
                nodes[leader] = start(cluster, leader, dirs[leader]);
                for (int id = 0; id < 3; id++) {
                    final DataDirectory dir = dirs[id];
                    Await.until("node " + id + " has answered all 599 commands (the junk never reaches it)", 60,
                        () -> results(dir).size() == journal.size() - 1);
                }
            }
            assertEquals(journal, answeredIndices(host), "the host's events answer its journal once each, in order");
            assertEquals(List.of(journal.get(150)), malformedAnswers(host), "the junk excerpt, and only it, is answered as malformed");
            final List<String> expected = engineAlone(host);
            for (int id = 0; id < 3; id++) {
                assertEquals(expected, results(dirs[id]), "node " + id + "'s results are the engine core's on the same commands");
                assertEquals(io.chronex.queues.EngineConfigFile.text(CONFIG), NodeJournal.recordedConfiguration(dirs[id]),
                    "node " + id + "'s journal records the configuration it ran");
            }
            final io.chronex.replay.JournalCompare.Comparison same = io.chronex.replay.JournalCompare.compare(
                List.of(dirs[0].root(), dirs[1].root(), dirs[2].root()));
            assertTrue(same.identical(), "the members' journals, configuration record included, are the same to the byte: "
                + same.difference());
        } finally {
            for (final ClusterNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
            log.forEach(System.out::println); // kept in the surefire report: what each member and the bridge said
        }
    }

    @Test
    void aHostWhoseEventsAnotherEngineWroteIsNotForwarded() throws Exception {
        final ClusterConfig cluster = ClusterHarness.config(tmp, 1);
        final DataDirectory node = DataDirectory.open(tmp.resolve("node-0"));
        final DataDirectory host = DataDirectory.open(tmp.resolve("host"));
        final List<Long> journal = append(host, 3, new SplittableRandom(3), 0);
        // As if bin/engine had answered the first command on this directory before it joined the cluster.
        try (SingleChronicleQueue events = host.events()) {
            final EventHeader header = new EventHeader();
            header.commandIndex = journal.get(0);
            final MatchingEngine engine = new MatchingEngine(CONFIG);
            final Result result = new Result();
            engine.apply(new Command().limit(1, 1, 1, Side.BUY, 100, 1), result);
            try (DocumentContext dc = events.createAppender().writingDocument()) {
                EventCodec.write(dc.wire().bytes(), header, result);
            }
        }
        try (ClusterNode member = start(cluster, 0, node); RunningBridge bridge = new RunningBridge(cluster, 1, host)) {
            Await.until("the bridge refuses to forward", 60, () -> log.stream().anyMatch(line -> line.contains("NOT FORWARDING")));
            assertEquals(journal.get(0), bridge.answeredThrough(), "nothing more was answered");
            assertEquals(List.of(), results(node), "nothing reached the member");
            assertNotNull(member);
        } finally {
            log.forEach(System.out::println);
        }
    }

    /**
     * The echo service (bin/cluster-node --service echo, the benchmark floor) through a member and the real bridge: every
     * command of the host, the cancels included, is answered once in journal order, and the member writes no queue.
     */
    @Test
    void anEchoMemberAnswersEveryCommandThroughTheBridge() throws Exception {
        final ClusterConfig cluster = ClusterHarness.config(tmp, 1);
        final DataDirectory node = DataDirectory.open(tmp.resolve("node-0"));
        final DataDirectory host = DataDirectory.open(tmp.resolve("host"));
        final List<Long> journal = append(host, 40, new SplittableRandom(11), 0);
        try (ClusterNode member = ClusterNode.start(cluster, 0, node, CONFIG, 0, "backoff", "echo", line -> log.add("node 0: " + line));
             RunningBridge bridge = new RunningBridge(cluster, 1, host)) {
            Await.until("the host has 40 results", 60, () -> bridge.answeredThrough() == journal.get(journal.size() - 1));
            assertEquals(40, member.service().applied());
        } finally {
            log.forEach(System.out::println);
        }
        assertEquals(journal, answeredIndices(host), "the host's events answer its journal once each, in order");
        assertEquals(false, node.hasQueue("commands") || node.hasQueue("events"), "the echo member created no queue");
    }

    private ClusterNode start(final ClusterConfig cluster, final int id, final DataDirectory data) {
        return ClusterNode.start(cluster, id, data, CONFIG, 0, "backoff", line -> log.add("node " + id + ": " + line));
    }

    private static int leaderOf(final ClusterNode[] nodes) throws Exception {
        final int[] leader = {-1};
        Await.until("a leader", 60, () -> {
            for (int id = 0; id < nodes.length; id++) {
                if (nodes[id] != null && nodes[id].service().role() == Cluster.Role.LEADER) {
                    leader[0] = id;
                    return true;
                }
            }
            return false;
        });
        return leader[0];
    }

    /** Appends limit orders and cancels around 100 from ten accounts; returns their journal indices. */
    static List<Long> append(final DataDirectory data, final int count, final SplittableRandom random, final int before) {
        final List<Long> indices = new ArrayList<>();
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = before; i < before + count; i++) {
                final long account = 1 + random.nextInt(10);
                if (i > 0 && random.nextInt(4) == 0) {
                    c.cancel(account, 1 + random.nextInt(i));
                } else {
                    c.limit(account, 1, i + 1, random.nextBoolean() ? Side.BUY : Side.SELL, 95 + random.nextInt(11), 1 + random.nextInt(5));
                }
                hops.clear();
                hops.gatewayId = 1;
                CommandCodec.append(appender, c, hops);
                indices.add(appender.lastIndexAppended());
            }
        }
        return indices;
    }

    /** Appends an excerpt no engine can decode; returns its index. */
    private static long appendJunk(final DataDirectory data) {
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            try (DocumentContext dc = appender.writingDocument()) {
                dc.wire().bytes().writeByte((byte) 'X').writeByte((byte) 1).writeInt(7);
            }
            return appender.lastIndexAppended();
        }
    }

    /** The command indices answered MALFORMED_COMMAND. */
    private static List<Long> malformedAnswers(final DataDirectory data) {
        final List<Long> indices = new ArrayList<>();
        read(data, (header, result) -> {
            if (result.rejectReason == RejectReason.MALFORMED_COMMAND) {
                indices.add(header.commandIndex);
            }
        });
        return indices;
    }

    /** The command index every events excerpt answers, in order. */
    static List<Long> answeredIndices(final DataDirectory data) {
        final List<Long> indices = new ArrayList<>();
        read(data, (header, result) -> indices.add(header.commandIndex));
        return indices;
    }

    /**
     * Every result's canonical text, in order; a member's answer to its journal's configuration record is left out (the
     * commands' answers are compared: the host's journal records no configuration).
     */
    static List<String> results(final DataDirectory data) {
        final List<String> results = new ArrayList<>();
        read(data, (header, result) -> {
            if (result.commandType != io.chronex.api.CommandType.CONFIGURATION) {
                results.add(result.toString());
            }
        });
        return results;
    }

    private interface EventSink {
        void accept(EventHeader header, Result result);
    }

    private static void read(final DataDirectory data, final EventSink sink) {
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = data.events(); ExcerptTailer tailer = events.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return;
                    }
                    assertEquals(DecodeStatus.OK, EventCodec.read(dc.wire().bytes(), header, result));
                    sink.accept(header, result);
                }
            }
        }
    }

    /** The engine core alone on the host's decodable commands: what a member answers. */
    private static List<String> engineAlone(final DataDirectory data) {
        final MatchingEngine engine = new MatchingEngine(CONFIG);
        final Command c = new Command();
        final Hops hops = new Hops();
        final Result result = new Result();
        final List<String> results = new ArrayList<>();
        try (SingleChronicleQueue commands = data.commands(); ExcerptTailer tailer = commands.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return results;
                    }
                    if (CommandCodec.read(dc.wire().bytes(), c, hops) != DecodeStatus.OK) {
                        continue; // never reaches a member
                    }
                    engine.apply(c, result);
                    results.add(result.toString());
                }
            }
        }
    }

    /** A bridge on its own thread, opened and closed there (Chronicle keeps tailers with one thread). */
    private final class RunningBridge implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicReference<BridgeAgent> agent = new AtomicReference<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        RunningBridge(final ClusterConfig cluster, final int source, final DataDirectory host) {
            thread = new Thread(() -> {
                try {
                    final BridgeAgent bridge = new BridgeAgent(cluster, source, host, "localhost", "backoff",
                        line -> log.add(line));
                    agent.set(bridge);
                    bridge.onStart();
                    final IdleStrategy idle = IdleStrategies.clusterByName("backoff");
                    try {
                        while (running.get()) {
                            idle.idle(bridge.doWork());
                        }
                    } finally {
                        bridge.onClose();
                    }
                } catch (final Throwable e) {
                    failure.set(e);
                }
            }, "bridge-" + source);
            thread.start();
        }

        long answeredThrough() {
            assertEquals(null, failure.get(), "the bridge failed");
            final BridgeAgent bridge = agent.get();
            return bridge == null ? Long.MIN_VALUE : bridge.answeredThrough();
        }

        @Override
        public void close() {
            running.set(false);
            try {
                thread.join();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            assertNotNull(agent.get());
        }
    }
}
