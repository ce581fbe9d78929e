package io.chronex.engine.process;

import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import io.chronex.testing.Workloads;
import io.chronex.workload.ExchangeCoreCsv;
import io.chronex.queues.DataDirectory;
import io.chronex.replay.Inject;
import io.chronex.replay.JournalSummary;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The acceptance run: ec-1M injected into the journal, answered by a real engine process
 * with config/exchange-core-bench.yaml, summarised from the queues: exchange-core's totals and
 * final best bid/ask, nothing missing, nothing twice.
 */
class ExchangeCoreEndToEndTest {
    @TempDir
    Path tmp;
    private final ChildJvm jvms = new ChildJvm();

    @AfterEach
    void stop() throws InterruptedException {
        jvms.killAll();
    }

    @Test
    void injectThenEngineThenSummaryGivesExchangeCoresTotals() throws Exception {
        final Path workload = Workloads.workload("ec-1M").resolve("commands.csv.gz");
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        assertEquals(1_001_000, Inject.append(data, ExchangeCoreCsv.load(workload, 40000), 0));

        final List<String> command = ChildJvm.command("512m", "-XX:+UseParallelGC", EngineMain.class.getName(), List.of(
            "--data-dir", data.root().toString(), "--config", ProjectRoot.resolve("config/exchange-core-bench.yaml").toString()));
        final Path log = tmp.resolve("engine.log");
        final Process engine = jvms.start(command, log);

        long answered = 0;
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        try (SingleChronicleQueue events = data.events()) {
            final ExcerptTailer tailer = events.createTailer();
            while (answered < 1_001_000) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (dc.isPresent()) {
                        answered++;
                        continue;
                    }
                }
                if (!engine.isAlive() || System.nanoTime() > deadline) {
                    fail("engine stopped or too slow after " + answered + " answers:\n" + Files.readString(log));
                }
                TimeUnit.MILLISECONDS.sleep(10);
            }
        }
        engine.destroy();
        assertTrue(engine.waitFor(30, TimeUnit.SECONDS) && engine.exitValue() == 0, "SIGTERM exits 0:\n" + Files.readString(log));

        final JournalSummary.Summary summary = JournalSummary.summarize(data);
        assertEquals("RESULT commands=1001000 answered=1001000 duplicates=0 missing=0 trades=40278 volume=353755 notional=12171843458"
            + " unreadable=0 damaged=0",
            summary.resultLine());
        assertEquals(List.of("symbol=40000 best_bid=34416 best_ask=34417"), summary.symbolLines());
        assertTrue(Files.readString(log).contains("accepted 1001000"), Files.readString(log));
    }
}
