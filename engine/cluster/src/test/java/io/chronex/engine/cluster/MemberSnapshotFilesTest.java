package io.chronex.engine.cluster;

import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.Hops;
import io.chronex.queues.SnapshotFiles;
import io.chronex.queues.cluster.ClusterMessages;
import io.chronex.replay.audit.Audit;
import io.chronex.runtime.StorageGuard;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member's engine snapshot files and its storage guard, on the service alone: the log's messages are handed to it as Aeron's
 * service container would (a stand-in Cluster, a session that keeps what is sent), so that free space can be set at will.
 */
class MemberSnapshotFilesTest {
    private static final EngineConfig CONFIG = EngineConfig.noRiskChecks(SymbolSpec.plain(1));
    private static final long MIB = 1L << 20;
    private static final int SOURCE = 1;

    @TempDir
    Path tmp;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH]);
    private final Header logHeader = new Header(0, 16);
    private int termOffset;
    private long sequence;
    /** Called each time the service idles (the pause); set by a test. */
    private Runnable onIdle = () -> { };

    @Test
    void everyNCommandsTheMemberWritesASnapshotFileThatRestoresItsStateAndThatAuditVerifyAccepts() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("node"));
        final EngineClusteredService service = new EngineClusteredService(data, CONFIG,
            new EngineClusteredService.Options(0, 10, StorageGuard.DEFAULT_RESERVE), log::add);
        service.storageGuard(new StorageGuard(tmp, 100 * MIB, () -> 1_000 * MIB));
        service.onStart(cluster(), null);
        final MatchingEngine reference = new MatchingEngine(CONFIG);
        final Result result = new Result();
        for (int i = 0; i < 25; i++) {
            final Command c = order(i);
            send(service, c);
            reference.apply(order(i), result);
            if (i == 9) {
                // The writer takes the newest snapshot asked for (an older one not yet started is replaced): on a cold JVM
                // the 20th command can come before the writer has started on the 10th's, and only the 20th is written.
                service.snapshots().await();
            }
            if (i == 19) {
                service.snapshots().await();
                final long hashAfter20 = reference.stateHash();
                final List<Long> indices = SnapshotFiles.indices(data.snapshots());
                assertEquals(List.of(commandIndex(data, 20), commandIndex(data, 10)), indices, "after commands 10 and 20: " + log);
                try (SingleChronicleQueue commands = DataDirectory.openReadOnly(data.root()).commands()) {
                    final SnapshotFiles.Restored<MatchingEngine> restored = SnapshotFiles.newestUpTo(data.snapshots(), Long.MAX_VALUE,
                        MatchingEngine::restore, new SnapshotFiles.Expect(MatchingEngine.configHash(CONFIG), commands), log::add);
                    assertNotNull(restored, log.toString());
                    assertEquals(hashAfter20, restored.state().stateHash(), "the file holds the state after command 20");
                }
            }
        }
        service.onTerminate(null);
        assertEquals(Long.toHexString(MatchingEngine.configHash(CONFIG)),
            Files.readString(data.snapshots().resolve(SnapshotFiles.CONFIG_HASH)).trim(), "pinned as bin/engine pins it");
        final Path yaml = tmp.resolve("engine.yaml");
        Files.writeString(yaml, EngineConfigFile.text(CONFIG));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(new String[] {"verify", "--data-dir", data.root().toString(), "--config", yaml.toString(), "--from",
                Long.toString(commandIndex(data, 21))}, out);
        }
        final String verify = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, verify);
        assertTrue(verify.contains("starting from " + SnapshotFiles.name(commandIndex(data, 20))), "verify starts from the file:\n"
            + verify);
    }

    @Test
    void belowHalfTheReserveNoSnapshotFileAndBelowAQuarterThePauseBeforeTheJournalUntilSpaceReturns() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("node"));
        final EngineClusteredService service = new EngineClusteredService(data, CONFIG,
            new EngineClusteredService.Options(0, 5, StorageGuard.DEFAULT_RESERVE), log::add);
        final long[] free = {1_000 * MIB};
        final StorageGuard guard = new StorageGuard(tmp, 100 * MIB, () -> free[0]);
        service.storageGuard(guard);
        service.onStart(cluster(), null);
        for (int i = 0; i < 5; i++) {
            send(service, order(i));
        }
        service.snapshots().await();
        assertEquals(1, SnapshotFiles.indices(data.snapshots()).size(), log.toString());
        assertEquals("ok", service.storage());

        free[0] = 40 * MIB; // below half: nothing of the journal is refused, the snapshot file at 10 is not written
        guard.recheck();
        for (int i = 5; i < 10; i++) {
            send(service, order(i));
        }
        service.snapshots().await();
        assertEquals(1, SnapshotFiles.indices(data.snapshots()).size(), "no second file: " + log);
        assertEquals("critical", service.storage());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("no snapshot file every 5 commands: free space on the filesystem of "
            + tmp)), log.toString());
        assertEquals(10, ClusterRig.eventCount(data.root()), "every command journalled and answered");

        free[0] = 20 * MIB; // below a quarter: the next command waits before the journal
        guard.recheck();
        final List<String> seenWhilePaused = new ArrayList<>();
        onIdle = () -> {
            seenWhilePaused.add(service.storage() + " applied=" + service.applied() + " events=" + ClusterRig.eventCount(data.root()));
            free[0] = 500 * MIB;
            guard.recheck();
        };
        send(service, order(10));
        assertEquals(List.of("exhausted applied=10 events=10"), seenWhilePaused, "paused before the journal, then went on");
        assertEquals(11, ClusterRig.eventCount(data.root()));
        assertEquals("ok", service.storage());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("storage exhausted (was critical)") && l.contains("applies nothing more")),
            log.toString());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("storage ok (was exhausted)")), log.toString());
        service.onTerminate(null);
    }

    /** Resting orders and crosses, so that the state has a book and trades. */
    private static Command order(final int i) {
        final Side side = i % 3 == 2 ? Side.SELL : Side.BUY;
        return new Command().limit(101 + i % 2, 1, 1_000 + i, side, side == Side.BUY ? 100 + i % 4 : 101, 1 + i % 3);
    }

    /** The journal index of the member's n-th command (1-based): its first excerpt is the configuration record. */
    private static long commandIndex(final DataDirectory data, final int n) {
        try (SingleChronicleQueue commands = DataDirectory.openReadOnly(data.root()).commands();
             ExcerptTailer tailer = commands.createTailer()) {
            for (int i = 0; i <= n; i++) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (i == n) {
                        return dc.index();
                    }
                }
            }
        }
        throw new AssertionError();
    }

    /** One COMMAND as the log delivers it, at a log position after the last. */
    private void send(final EngineClusteredService service, final Command command) {
        final Bytes<?> excerpt = Bytes.allocateElasticDirect(256);
        CommandCodec.write(excerpt, command, new Hops());
        final int length = ClusterMessages.HEADER_LENGTH + (int) excerpt.writePosition();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[length]);
        ClusterMessages.header(message, 0, ClusterMessages.COMMAND, SOURCE, sequence++);
        for (int i = 0; i < excerpt.writePosition(); i++) {
            message.putByte(ClusterMessages.HEADER_LENGTH + i, excerpt.readByte(i));
        }
        excerpt.releaseLast();
        frame.putInt(DataHeaderFlyweight.FRAME_LENGTH_FIELD_OFFSET, DataHeaderFlyweight.HEADER_LENGTH + length);
        frame.putInt(DataHeaderFlyweight.TERM_OFFSET_FIELD_OFFSET, termOffset);
        frame.putInt(DataHeaderFlyweight.TERM_ID_FIELD_OFFSET, 0);
        termOffset += 1024;
        logHeader.buffer(frame);
        logHeader.offset(0);
        service.onSessionMessage(new RecordingSession(), 0, message, 0, length, logHeader);
    }

    /** What the service asks of Aeron's Cluster here: time in ms, a follower's role, an idle strategy that reports each idle. */
    private Cluster cluster() {
        final IdleStrategy idle = new IdleStrategy() {
            @Override
            public void idle(final int workCount) {
                idle();
            }

            @Override
            public void idle() {
                onIdle.run();
            }

            @Override
            public void reset() {
            }
        };
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class}, (proxy, method, args) ->
            switch (method.getName()) {
                case "timeUnit" -> TimeUnit.MILLISECONDS;
                case "role" -> Cluster.Role.FOLLOWER;
                case "idleStrategy" -> idle;
                case "logPosition" -> (long) termOffset;
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "a stand-in cluster";
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}
