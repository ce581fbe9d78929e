package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.engine.MatchingEngine;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.SnapshotEnvelope;
import io.chronex.queues.SnapshotFiles;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The books rebuilt from events checked against an engine snapshot: equal when the events are the
 * engine's own results, a difference named when one level change in them is altered, and a
 * damaged snapshot reported, not fatal.
 */
class SnapshotCheckTest {
    private static final int COMMANDS = 6;
    @TempDir
    Path tmp;

    /**
     * Runs six orders in ACME (1) and GLOBEX (2) through a real engine, writes each result as the
     * events excerpt of journal index i (1..6), {@code alter} given the chance to change a result
     * before it is written, and a snapshot taken after the last command. Returns the check, having looked and read.
     */
    private SnapshotCheck run(final Consumer<Result> alter) throws Exception {
        return run(alter, COMMANDS);
    }

    /** As above, the snapshot's file named as if taken after {@code namedIndex}. */
    private SnapshotCheck run(final Consumer<Result> alter, final long namedIndex) throws Exception {
        final io.chronex.api.EngineConfig config = EngineConfigFile.load(ProjectRoot.resolve("config/engine.yaml"));
        final MatchingEngine engine = new MatchingEngine(config);
        // FUNDS is on in the shipped configuration: accounts 1 and 2 are funded first (deposits move no book: no events here).
        final Result deposited = new Result();
        for (final long account : new long[] {1, 2}) {
            for (final io.chronex.api.AssetSpec asset : config.assets()) {
                engine.apply(new Command().money(io.chronex.api.CommandType.DEPOSIT, account, asset.id(), 1_000_000_000L,
                    account * 10 + asset.id()), deposited);
                assertFalse(deposited.isRejected(), deposited.toString());
            }
        }
        final Path snapshots = Files.createDirectories(tmp.resolve("snapshots"));
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        final Command c = new Command();
        final Result r = new Result();
        final EventHeader header = new EventHeader();
        final SingleChronicleQueue events = data.events();
        final ExcerptAppender appender = events.createAppender();
        for (int i = 1; i <= COMMANDS; i++) {
            switch (i) {
                case 1 -> c.limit(1, 1, 1, Side.BUY, 10_000, 10);
                case 2 -> c.limit(1, 1, 2, Side.BUY, 9_990, 5);
                case 3 -> c.limit(2, 1, 3, Side.SELL, 10_050, 4);
                case 4 -> c.limit(2, 1, 4, Side.SELL, 10_000, 3);
                case 5 -> c.limit(1, 2, 5, Side.BUY, 2_500, 7);
                default -> c.limit(2, 2, 6, Side.SELL, 2_510, 2);
            }
            engine.apply(c, r);
            if (i == 5) {
                alter.accept(r);
            }
            header.commandIndex = i;
            try (DocumentContext dc = appender.writingDocument()) {
                EventCodec.write(dc.wire().bytes(), header, r);
            }
        }
        // No commands journal here: the fingerprint is not checked (the engine-side tests check it).
        final long configHash = MatchingEngine.configHash(config);
        Files.write(snapshots.resolve(String.format("snapshot-%016x.bin", namedIndex)),
            SnapshotEnvelope.wrap(COMMANDS, configHash, 0, engine.snapshot()));
        final SnapshotCheck check = new SnapshotCheck(snapshots, new EventTail(events.createTailer()),
            () -> new SnapshotFiles.Expect(configHash, null));
        check.look();
        check.poll(1_000);
        events.close();
        return check;
    }

    @Test
    void theEnginesOwnEventsMatchItsSnapshot() throws Exception {
        final SnapshotCheck check = run(r -> { });
        assertEquals(COMMANDS, check.last().journalIndex());
        assertTrue(check.last().equal(), check.last().detail());
        // ACME: bids 100.00 (7 left of 10) and 99.90, ask 100.50; GLOBEX: bid 25.00, ask 25.10.
        assertEquals("equal (2 symbols, 5 levels)", check.last().detail());
        assertEquals(1, check.checked());
        assertEquals(0, check.differed());
    }

    @Test
    void anAlteredLevelChangeIsNamed() throws Exception {
        final SnapshotCheck check = run(r -> r.levelChange(0).quantity += 1);
        assertFalse(check.last().equal());
        assertEquals("DIFFERENT at symbol 2 bid: level 0: snapshot 7@2500 (1 orders), events 8@2500 (1 orders)", check.last().detail());
        assertEquals(1, check.differed());
    }

    @Test
    void aDamagedSnapshotIsReportedAndNotFatal() throws Exception {
        final Path snapshots = Files.createDirectories(tmp.resolve("snapshots"));
        Files.write(snapshots.resolve(String.format("snapshot-%016x.bin", 9)), new byte[] {1, 2, 3});
        final SnapshotCheck check = new SnapshotCheck(snapshots, null, () -> new SnapshotFiles.Expect(null, null));
        check.look();
        assertTrue(check.last().equal(), "unreadable is not a difference");
        assertTrue(check.last().detail().startsWith("not checked: snapshot-0000000000000009.bin unreadable"), check.last().detail());
        assertEquals(0, check.poll(1_000), "nothing to wait for");
        check.look();
        assertEquals(9, check.last().journalIndex(), "not tried again");
    }

    @Test
    void aRenamedSnapshotIsNotTakenForWhatItsNameSays() throws Exception {
        final SnapshotCheck check = run(r -> { }, 5);
        assertEquals(5, check.last().journalIndex());
        assertTrue(check.last().detail().startsWith("not checked: snapshot-0000000000000005.bin unreadable")
            && check.last().detail().contains("its name says journal index 0x5 but it holds the state after 0x6"), check.last().detail());
        assertEquals(0, check.checked());
    }

    @Test
    void noSnapshotNoOutcome() {
        final SnapshotCheck check = new SnapshotCheck(tmp.resolve("none"), null, () -> new SnapshotFiles.Expect(null, null));
        check.look();
        assertNull(check.last());
    }
}
