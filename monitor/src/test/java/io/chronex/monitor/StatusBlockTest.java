package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.Hops;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The block's new lines from a model fed directly: the hop p99 alert, sessions per gateway, operator commands, notional, last minute. */
class StatusBlockTest {
    private static final ProcessStatus ALIVE = new ProcessStatus(ProcessStatus.State.ALIVE, 42);
    private static final Map<Integer, SymbolSpec> SYMBOLS = Map.of(1, new SymbolSpec(1, "ACME", 100, 1, 1, 0, 0));

    private final MonitorModel model = new MonitorModel();
    private long eventsIndex;

    private static StatusBlock.View view(final double intervalSeconds, final long alertP99Nanos,
                                         final List<StatusBlock.GatewayView> gateways) {
        return new StatusBlock.View(Path.of("D"), Instant.EPOCH, intervalSeconds, 0, 1_000_000_000L, ALIVE, gateways, SYMBOLS, 0,
            alertP99Nanos);
    }

    /** An events excerpt whose journal hop is {@code journalMicros}. */
    private void journalHop(final long journalMicros) {
        final EventHeader header = new EventHeader();
        header.commandIndex = eventsIndex;
        header.hops.gatewayAppendNanos = 1_000;
        header.hops.engineReadNanos = 1_000 + journalMicros * 1_000;
        model.onEvent(eventsIndex++, header, new Result());
    }

    private static String alerts(final String block) {
        return block.lines().filter(l -> l.startsWith("alerts")).findFirst().orElseThrow();
    }

    /** Free space: shown on its line; an alert below the writers' reserve, and when the rate reaches it within ten minutes. */
    @Test
    void storageIsShownAndAlertsBeforeTheDiskFills() {
        final long mib = 1L << 20;
        final java.util.function.Function<Storage.Reading, String> render = reading -> StatusBlock.render(model, new StatusBlock.View(
            Path.of("D"), Instant.EPOCH, 1, 0, 1_000_000_000L, ALIVE, List.of(), SYMBOLS, 0, 0, null, reading, List.of()));
        final String plenty = render.apply(new Storage.Reading(100_000 * mib, 50_000 * mib, 256 * mib, 0, -1, null));
        assertTrue(plenty.contains("storage  48.8 GiB free of 97.7 GiB (reserve 256.0 MiB)\n"), plenty);
        assertTrue(alerts(plenty).endsWith("none"), plenty);
        // 1,000 MiB above the reserve at 2 MiB/s: 500 s, under the ten minutes.
        final String filling = render.apply(new Storage.Reading(100_000 * mib, 1_256 * mib, 256 * mib, 2 * mib, 500, null));
        assertTrue(alerts(filling).contains("STORAGE FILLING: 1.2 GiB free of 97.7 GiB (reserve 256.0 MiB), filling 2.0 MiB/s: reserve"
            + " reached in 8 min"), filling);
        final String slowly = render.apply(new Storage.Reading(100_000 * mib, 1_256 * mib, 256 * mib, mib, 1_000, null));
        assertTrue(alerts(slowly).endsWith("none"), "17 minutes away: " + slowly);
        final String low = render.apply(new Storage.Reading(100_000 * mib, 100 * mib, 256 * mib, mib, -1, null));
        assertTrue(alerts(low).contains("STORAGE LOW: 100.0 MiB free of 97.7 GiB (reserve 256.0 MiB): BELOW THE RESERVE, gateways"
            + " refuse new orders"), low);
    }

    @Test
    void aHopWhoseP99OverTheLastIntervalIsAboveTheThresholdIsAnAlert() {
        for (int i = 0; i < 100; i++) {
            journalHop(i < 95 ? 100 : 2_000); // p99 2 ms
        }
        model.rollInterval();
        final String alert = alerts(StatusBlock.render(model, view(1, 1_000_000, List.of())));
        assertTrue(alert.contains("HOP P99 > 1 ms: journal 2.00"), alert);
        assertTrue(alert.contains("(n 100)"), alert);
        assertFalse(alert.contains("match"), alert);
        assertTrue(alerts(StatusBlock.render(model, view(1, 2_500_000, List.of()))).endsWith("none"), "under the threshold");
        assertTrue(alerts(StatusBlock.render(model, view(1, 0, List.of()))).endsWith("none"), "0: off");
        assertTrue(alerts(StatusBlock.render(model, view(0, 1_000_000, List.of()))).endsWith("none"), "--once: no last interval");
        assertTrue(alerts(StatusBlock.render(model, new StatusBlock.View(Path.of("D"), Instant.EPOCH, 1, 0, 1_000_000_000L, ALIVE,
            List.of(), SYMBOLS, 0))).endsWith("none"), "the old constructor: off");

        // The next interval is quiet: the alert goes, the last minute still holds the slow hops.
        model.rollInterval();
        final String block = StatusBlock.render(model, view(1, 1_000_000, List.of()));
        assertTrue(alerts(block).endsWith("none"), block);
        assertTrue(block.contains("last 2 s |"), block);
        final String journal = block.lines().filter(l -> l.startsWith("  journal")).findFirst().orElseThrow();
        // interval n 0 ... | last minute n 100, p50 0.10 ms, p99 2 ms, max 2 ms | since start n 100 ...
        assertTrue(journal.matches("  journal +0 +0\\.00 +0\\.00 +0\\.00 +0\\.00 "
            + "\\| +100 +100\\.\\d+ +20\\d\\d\\.\\d+ +20\\d\\d\\.\\d+ \\| +100 +20\\d\\d\\.\\d+ +20\\d\\d\\.\\d+"), journal);
    }

    @Test
    void eachGatewayShowsItsSessionsAndEveryLoggedOnOneWithItsCountsInTheInterval() {
        final GatewaySessionsFile.Session aliceBefore = new GatewaySessionsFile.Session("ALICE", "CHRONEX", true, 4, 3, 4, 3, 1_000, 0);
        final GatewaySessionsFile.Session alice = new GatewaySessionsFile.Session("ALICE", "CHRONEX", true, 11, 9, 11, 9, 1_000, 0);
        final GatewaySessionsFile.Session bob = new GatewaySessionsFile.Session("BOB", "CHRONEX", false, 0, 0, 0, 0, 0, 0);
        final GatewaySessionsFile.Snapshot before = new GatewaySessionsFile.Snapshot(1, 1, 500, 42, List.of(aliceBefore, bob), null);
        final GatewaySessionsFile.Snapshot now = new GatewaySessionsFile.Snapshot(1, 1, 500, 42, List.of(alice, bob), null);

        String block = StatusBlock.render(model, view(1, 0, List.of(new StatusBlock.GatewayView(1, ALIVE, null, now, before))));
        assertTrue(block.contains("failed events 0, sessions 1/2 logged on\n"), block);
        assertTrue(block.contains("\n  session ALICE->CHRONEX in 11 (7), out 9 (6); last MsgSeqNum in 11, out 9; "
            + "logged on 1970-01-01T00:00:01Z\n"), block);
        assertFalse(block.contains("BOB"), "only logged-on sessions get a line\n" + block);

        // Another gateway run (a restart in between): no interval; --once: no interval either.
        final GatewaySessionsFile.Snapshot otherRun = new GatewaySessionsFile.Snapshot(1, 1, 400, 41, List.of(aliceBefore, bob), null);
        block = StatusBlock.render(model, view(1, 0, List.of(new StatusBlock.GatewayView(1, ALIVE, null, now, otherRun))));
        assertTrue(block.contains("  session ALICE->CHRONEX in 11, out 9;"), block);
        block = StatusBlock.render(model, view(0, 0, List.of(new StatusBlock.GatewayView(1, ALIVE, null, now, before))));
        assertTrue(block.contains("  session ALICE->CHRONEX in 11, out 9;"), block);

        // A gateway that is gone: what its file says, marked, and no session lines.
        block = StatusBlock.render(model, view(1, 0, List.of(new StatusBlock.GatewayView(1,
            new ProcessStatus(ProcessStatus.State.GONE, 42), null, now, before))));
        assertTrue(block.contains("sessions 1/2 logged on when it stopped\n"), block);
        assertFalse(block.contains("  session ALICE"), block);

        // No file, a bad file, the old constructor.
        block = StatusBlock.render(model, view(1, 0, List.of(new StatusBlock.GatewayView(1, ALIVE, null),
            new StatusBlock.GatewayView(2, ALIVE, null, new GatewaySessionsFile.Snapshot(2, 0, 0, 0, List.of(),
                "sessions file version 2, this reader knows version 1 (written by a newer gateway)"), null))));
        assertTrue(block.contains("gateway 1  alive (pid 42), 0 commands appended (0 in the interval), failed events 0, "
            + "sessions ? (no sessions file)"), block);
        assertTrue(block.contains("sessions ? (sessions file version 2, this reader knows version 1 (written by a newer gateway))"), block);
    }

    @Test
    void operatorCommandsHaveALineOfTheirOwn() {
        assertTrue(StatusBlock.render(model, view(1, 0, List.of())).contains("\noperator none\n"));
        for (long i = 1; i <= 4; i++) {
            final Command c = new Command();
            c.type = i == 4 ? CommandType.RESUME : CommandType.HALT;
            c.symbol = 1;
            model.onCommand(i, DecodeStatus.OK, c, new Hops());
        }
        final Command limits = new Command();
        limits.type = CommandType.SET_ACCOUNT_LIMITS;
        limits.account = 9;
        model.onCommand(0x10, DecodeStatus.OK, limits, new Hops());
        final EventHeader header = new EventHeader();
        header.commandIndex = 4;
        final Result answer = new Result();
        answer.reset(CommandType.RESUME);
        model.onEvent(0, header, answer);

        final String block = StatusBlock.render(model, view(1, 0, List.of()));
        assertTrue(block.contains("\noperator 5 commands: HALT 3, RESUME 1, SET_ACCOUNT_LIMITS 1\n"
            + "  0x10 SET_ACCOUNT_LIMITS account 9: no answer yet\n"
            + "  0x4 RESUME ACME: accepted\n"
            + "  0x3 HALT ACME: no answer yet\n"), block);
    }

    @Test
    void theTradesLineShowsNotionalInSymbolUnitsAndTheLastTrade() {
        for (int i = 0; i < 2; i++) {
            final EventHeader header = new EventHeader();
            final Result r = new Result();
            r.reset(CommandType.NEW_ORDER);
            r.symbol = i == 0 ? 1 : 2;
            final Fill f = r.addFill();
            f.price = 10_050;
            f.quantity = 3;
            f.takerSide = Side.BUY;
            model.onEvent(0x2a + i, header, r);
        }
        final String block = StatusBlock.render(model, view(1, 0, List.of()));
        assertTrue(block.contains("trades   ACME     1 trades, volume 3, notional 301.50; last 3@100.50 (events 0x2a)\n"), block);
        assertTrue(block.contains("trades   #2       1 trades, volume 3, notional 30150; last 3@10050 (events 0x2b)\n"),
            "no configuration: ticks × lots\n" + block);
        assertEquals("3015" + "0".repeat(26) + ".00", StatusBlock.notional(view(1, 0, List.of()), 1,
            java.math.BigInteger.valueOf(30_150).multiply(java.math.BigInteger.TEN.pow(27))));
    }
}
