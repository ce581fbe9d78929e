package io.chronex.engine.cluster;

import io.chronex.queues.LedgerStatusFile;
import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.field.ExecType;
import quickfix.field.Side;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/admin snapshot in cluster mode, then a full stop and start of the cluster, with real processes: the operator's
 * SNAPSHOT goes from the host's journal through the bridge to the cluster, whose leader has every member take a
 * cluster snapshot; after more orders all three members are stopped (SIGTERM) and started again; each restores the
 * snapshot and replays the log after it, and trading goes on where it was: a crossing order fills against an order
 * from before the restart, nothing is journalled or answered twice and nothing is missing; and every member's DATA/ledger
 * (the monitor's money figures) holds the same totals at the end.
 */
class ClusterSnapshotRestartTest {
    @TempDir
    Path tmp;

    private final long start = System.nanoTime();

    private ClusterRig rig;

    @Test
    void aSnapshotThenAFullRestartResumesWithNoGapAndNoRepeat() throws Exception {
        rig = new ClusterRig(tmp, "  - {senderCompId: ALICE, account: 101}\n  - {senderCompId: BOB, account: 102}\n");
        FixClient alice = null;
        FixClient bob = null;
        try {
            rig.startMembers();
            say("members started; member " + rig.leader() + " leads");
            rig.startBridge();
            rig.startGateway();
            alice = new FixClient("ALICE", rig.gatewayPort());
            bob = new FixClient("BOB", rig.gatewayPort());
            Await.until("ALICE logged on", 60, alice::loggedOn);
            Await.until("BOB logged on", 60, bob::loggedOn);

            // ord-1 .. ord-20: resting buys at 95.01 .. 95.20; the best bid is ord-20's.
            send(alice, 1, 20, "95");
            awaitNews(alice, 20);
            assertEquals(0, rig.admin("snapshot"), "bin/admin snapshot is accepted through the bridge");
            for (int id = 0; id < ClusterRig.MEMBERS; id++) {
                say("member " + id + ": " + rig.awaitMemberLine(id, "cluster snapshot at log position"));
                // bin/engine's kind of file too, written after the SNAPSHOT command
                say("member " + id + ": " + rig.awaitMemberLine(id, "snapshot file snapshot-"));
            }
            // ord-21 .. ord-30 after the snapshot: the restart replays them from the log.
            send(alice, 21, 30, "94");
            awaitNews(alice, 30);
            final long beforeRestart = ClusterRig.FUNDING_COMMANDS + 31; // the funding, 30 orders and the SNAPSHOT command
            rig.awaitMembersAnswered(beforeRestart);

            final List<Integer> exits = rig.stopMembers();
            say("all three members stopped with SIGTERM: exit codes " + exits);
            assertEquals(List.of(0, 0, 0), exits, "a member stopped with SIGTERM exits 0");
            rig.startMembers();
            for (int id = 0; id < ClusterRig.MEMBERS; id++) {
                say("member " + id + ": " + rig.awaitMemberLine(id, "restored the cluster snapshot"));
            }
            say("member " + rig.leader() + " leads after the restart");

            // BOB sells one lot at 95.00: it takes ALICE's best bid, ord-20 at 95.20, from before the restart.
            bob.sendLimit("bob-1", Side.SELL, "95.00");
            send(alice, 31, 35, "93");
            final FixClient buyer = alice;
            final FixClient seller = bob;
            Await.until("BOB's fill and ALICE's", 120, () -> seller.countByClOrdId(ExecType.TRADE).containsKey("bob-1")
                && buyer.countByClOrdId(ExecType.TRADE).containsKey("ord-20"));
            awaitNews(alice, 35);
            final long total = beforeRestart + 6;
            rig.awaitMembersAnswered(total);
            say("every member answered all " + total + " commands; stopping everything");
            alice.close();
            bob.close();
            rig.stopAll();

            for (final FixClient.Report r : bob.reports()) {
                say("BOB: " + r);
            }
            final List<FixClient.Report> fills = bob.reports().stream().filter(r -> r.execType() == ExecType.TRADE).toList();
            assertEquals(1, fills.size(), "BOB's order fills once: " + bob.reports());
            assertEquals(95.20, Double.parseDouble(fills.get(0).lastPx()), 1e-9, "at the resting order's price, ord-20's");
            final Map<String, Integer> aliceFills = alice.countByClOrdId(ExecType.TRADE);
            assertEquals(Map.of("ord-20", 1), aliceFills, "ALICE's fills");
            final Map<String, Integer> news = alice.countByClOrdId(ExecType.NEW);
            for (int i = 1; i <= 35; i++) {
                assertEquals(1, news.getOrDefault("ord-" + i, 0), "reports New for ord-" + i);
            }
            assertEquals(36, alice.reports().size(), "ALICE: 35 New and one fill, nothing twice");
            assertEquals(List.of(), alice.repeatedExecIds(), "ExecIDs ALICE got twice");
            assertEquals(List.of(), bob.repeatedExecIds(), "ExecIDs BOB got twice");
            rig.checkJournals(total); // bin/audit verify checks each member's snapshot file against its re-execution
            checkLedgers(total);
            for (int id = 0; id < ClusterRig.MEMBERS; id++) {
                final Path snapshots = rig.memberDir(id).resolve("snapshots");
                assertEquals(1, io.chronex.queues.SnapshotFiles.indices(snapshots).size(), "member " + id + ": the file written with"
                    + " the cluster snapshot");
                assertEquals(io.chronex.queues.SnapshotFiles.indices(rig.memberDir(0).resolve("snapshots")),
                    io.chronex.queues.SnapshotFiles.indices(snapshots), "every member's after the same command");
            }
        } finally {
            if (alice != null) {
                alice.close();
            }
            if (bob != null) {
                bob.close();
            }
            rig.close();
            rig.printLogs();
        }
    }

    /**
     * Each member's DATA/ledger as its engine left it at the stop: after every command, the same on all three, the funding's
     * USD deposited, ALICE's resting bids holding USD and the one trade's taker fee collected (the monitor reads these).
     */
    private void checkLedgers(final long total) {
        LedgerStatusFile.Snapshot first = null;
        for (int id = 0; id < ClusterRig.MEMBERS; id++) {
            final LedgerStatusFile.Snapshot ledger = LedgerStatusFile.read(LedgerStatusFile.of(rig.memberDir(id)));
            assertNotNull(ledger, "member " + id + " wrote DATA/ledger");
            assertNull(ledger.problem(), "member " + id);
            assertEquals(total, ledger.commands(), "member " + id + ": the totals after every command");
            final LedgerStatusFile.Asset usd = ledger.assets().stream().filter(a -> a.code().equals("USD")).findFirst().orElseThrow();
            assertEquals("12000000000.00", usd.format(usd.deposited()), "member " + id + ": config/demo-funding.admin's USD");
            assertTrue(usd.held() > 0 && usd.fees() > 0, "member " + id + ": " + usd);
            if (first == null) {
                first = ledger;
            } else {
                assertEquals(first.assets(), ledger.assets(), "member " + id + "'s totals equal member 0's");
            }
        }
    }

    /** Sends ord-{@code from} .. ord-{@code to}, resting buys at {@code whole}.01, .02, ... */
    private static void send(final FixClient client, final int from, final int to, final String whole) {
        for (int i = from; i <= to; i++) {
            client.sendLimit("ord-" + i, Side.BUY, String.format("%s.%02d", whole, i - from + 1));
        }
    }

    private void awaitNews(final FixClient client, final int through) throws Exception {
        Await.until("a New for each of ord-1 .. ord-" + through + "; client events " + client.events, 120, () -> {
            final Map<String, Integer> news = client.countByClOrdId(ExecType.NEW);
            for (int i = 1; i <= through; i++) {
                if (!news.containsKey("ord-" + i)) {
                    return false;
                }
            }
            return true;
        });
        say("reports New for ord-1 .. ord-" + through + " received");
    }

    private void say(final String what) {
        System.out.printf("[%7.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
    }
}
