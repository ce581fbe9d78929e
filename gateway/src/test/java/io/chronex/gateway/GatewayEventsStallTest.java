package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.runtime.StorageGuard;
import io.chronex.testing.Await;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Bytes zeroed in the events queue ahead of a running gateway: its tailer reads them as "not written yet" and stops
 * there for good while the engine goes on writing after them. The gateway says so in its log, naming the queue and the
 * indices, once no event has come for a while, instead of looking like a gateway with nothing to deliver.
 */
class GatewayEventsStallTest {
    @TempDir
    Path tmp;

    private final Queue<String> log = new ConcurrentLinkedQueue<>();

    /** Results for account 999, which no session of this gateway trades for: read and passed over. */
    private static void appendResults(final SingleChronicleQueue events, final int count) {
        final ExcerptAppender appender = events.createAppender();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        for (int i = 0; i < count; i++) {
            result.reset(CommandType.NEW_ORDER);
            result.account = 999;
            header.commandIndex = i;
            try (DocumentContext dc = appender.writingDocument()) {
                EventCodec.write(dc.wire().bytes(), header, result);
            }
        }
    }

    @Test
    void aGatewayStuckAtZeroedEventsSaysWhere() throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        Files.writeString(tmp.resolve("gateway.yaml"), "port: 0\nengineConfig: engine.yaml\nsessions:\n"
            + "  - {senderCompId: S, account: 4}\n");
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        final Path eventsDir = data.root().resolve("events");
        final Gateway gateway = new Gateway(GatewayConfig.load(tmp.resolve("gateway.yaml")), 1, 0, data, log::add,
            StorageGuard.forDirectory(data.root(), 0));
        try (SingleChronicleQueue events = data.events()) {
            appendResults(events, 4_000);
            final long middle;
            final ExcerptTailer tailer = events.createTailer();
            assertTrue(tailer.moveToIndex(events.lastIndex() - 1_000));
            try (DocumentContext dc = tailer.readingDocument()) {
                middle = dc.wire().bytes().readPosition() - Integer.BYTES; // the excerpt's header
            }
            final Path file;
            try (Stream<Path> files = Files.list(eventsDir)) {
                file = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
            }
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(middle);
                raf.write(new byte[4096]);
            }
            // The gateway's loop is turned by the wait itself; its check speaks after 5 s without an event.
            try {
                Await.until("word of the stretch the gateway is stuck at", 60, () -> {
                    gateway.doWork();
                    return log.stream().anyMatch(l -> l.startsWith("error: the gateway cannot read the events queue"));
                });
            } catch (final AssertionError e) {
                fail(e.getMessage() + ":\n" + String.join("\n", log));
            }
        } finally {
            gateway.close();
        }
        final List<String> said = log.stream().filter(l -> l.startsWith("error: the gateway cannot read")).toList();
        assertTrue(said.size() == 1 && said.get(0).contains(eventsDir + ": excerpts from index 0x"), said.toString());
    }
}
