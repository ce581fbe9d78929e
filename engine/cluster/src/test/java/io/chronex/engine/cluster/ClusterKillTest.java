package io.chronex.engine.cluster;

import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.field.ExecType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cluster's "kill -9 anything" acceptance, with real processes: three members, a gateway host's bridge and gateway,
 * and a QuickFIX/J client sending resting orders at a steady pace throughout. One after another, a follower, the bridge,
 * the gateway and the leader are killed with -9 and started again while orders keep coming; the client does nothing
 * but its own reconnects. In the end every order is in the host's journal and every member's once and answered once
 * (bin/journal-summary), the client got exactly one ExecutionReport New for each and no ExecID twice, every member's
 * results equal the host's result for result, and bin/audit verify passes on each directory.
 */
class ClusterKillTest {
    /** One order every 20 ms: a steady 50 a second, enough to keep commands in flight at every kill. */
    private static final long PACE_MILLIS = 20;
    /** Orders sent while a killed process is down, in each phase. */
    private static final int WHILE_DOWN = 25;

    @TempDir
    Path tmp;

    private final long start = System.nanoTime();

    @Test
    void killsOfAFollowerTheBridgeTheGatewayAndTheLeaderLoseAndRepeatNothing() throws Exception {
        final ClusterRig rig = new ClusterRig(tmp, "  - {senderCompId: ALICE, account: 101}\n");
        FixClient client = null;
        Sender sender = null;
        try {
            rig.startMembers();
            say("members started; member " + rig.leader() + " leads");
            rig.startBridge();
            rig.startGateway();
            client = new FixClient("ALICE", rig.gatewayPort());
            final FixClient alice = client;
            Await.until("ALICE logged on", 60, alice::loggedOn);
            sender = new Sender(alice);
            say("ALICE logged on; sending an order every " + PACE_MILLIS + " ms");
            awaitReports(alice, sender.awaitSent(20));

            final int follower = rig.follower();
            rig.killMember(follower);
            say("kill -9 of follower " + follower + " after order " + sender.sent());
            awaitReports(alice, sender.awaitSent(sender.sent() + WHILE_DOWN));
            say("orders answered with member " + follower + " down; restarting it");
            rig.startMember(follower);
            awaitCaughtUp(rig, alice, sender);

            rig.killBridge();
            say("kill -9 of the bridge after order " + sender.sent());
            final int bridgeDown = sender.awaitSent(sender.sent() + WHILE_DOWN);
            rig.startBridge();
            say("bridge restarted after order " + sender.sent());
            awaitReports(alice, bridgeDown);

            rig.killGateway();
            say("kill -9 of the gateway after order " + sender.sent());
            final int gatewayDown = sender.awaitSent(sender.sent() + WHILE_DOWN);
            rig.startGateway();
            say("gateway restarted after order " + sender.sent());
            awaitReports(alice, gatewayDown);
            awaitCaughtUp(rig, alice, sender);

            final int leader = rig.leader();
            rig.killMember(leader);
            say("kill -9 of leader " + leader + " after order " + sender.sent());
            final int leaderDown = sender.awaitSent(sender.sent() + 2 * WHILE_DOWN);
            say("member " + rig.leader() + " leads now");
            awaitReports(alice, leaderDown);
            say("orders answered under the new leader; restarting member " + leader);
            rig.startMember(leader);

            final int total = sender.stop();
            say("sending stopped after order " + total);
            awaitReports(alice, total);
            rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + total);
            say("every member answered all " + total + " orders; stopping everything");
            client.close();
            client = null;
            rig.stopAll();

            checkReports(alice, total);
            rig.checkJournals(ClusterRig.FUNDING_COMMANDS + total);
            say("checked: the funding and " + total + " orders, each journalled and answered once on the host and on every member");
        } finally {
            if (sender != null) {
                sender.stop();
            }
            if (client != null) {
                client.close();
            }
            rig.close();
            rig.printLogs();
        }
    }

    /** Waits until the client has a report for every order sent so far, and every running member has answered them all. */
    private void awaitCaughtUp(final ClusterRig rig, final FixClient client, final Sender sender) throws Exception {
        final int through = sender.sent();
        awaitReports(client, through);
        rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + through);
        say("every running member answered the first " + through + " orders");
    }

    /** Waits until orders ord-1 .. ord-{@code through} each have their New. */
    private void awaitReports(final FixClient client, final int through) throws Exception {
        Await.until("an ExecutionReport New for each of ord-1 .. ord-" + through + "; client events " + client.events, 120, () -> {
            final Map<String, Integer> news = client.countByClOrdId(ExecType.NEW);
            for (int i = 1; i <= through; i++) {
                if (!news.containsKey("ord-" + i)) {
                    return false;
                }
            }
            return true;
        });
        say("reports for ord-1 .. ord-" + through + " received");
    }

    /** Exactly one report per order, a New, and no ExecID twice. */
    private static void checkReports(final FixClient client, final int total) {
        final List<FixClient.Report> reports = client.reports();
        final List<String> wrong = new ArrayList<>();
        for (final FixClient.Report r : reports) {
            if (r.execType() != ExecType.NEW) {
                wrong.add(r.toString());
            }
        }
        assertEquals(List.of(), wrong, "reports other than New (no order crosses)");
        final Map<String, Integer> news = client.countByClOrdId(ExecType.NEW);
        for (int i = 1; i <= total; i++) {
            assertEquals(1, news.getOrDefault("ord-" + i, 0), "reports New for ord-" + i);
        }
        assertEquals(total, reports.size(), "one report per order, no more");
        assertEquals(List.of(), client.repeatedExecIds(), "ExecIDs delivered twice");
    }

    private void say(final String what) {
        System.out.printf("[%7.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
    }

    /** The client's order flow: ord-1, ord-2, ... one every PACE_MILLIS, resting buys (90.00 .. 98.99) that never cross. */
    private static final class Sender {
        private final AtomicInteger sent = new AtomicInteger();
        private volatile boolean running = true;
        private final Thread thread;

        Sender(final FixClient client) {
            thread = new Thread(() -> {
                while (running) {
                    final int i = sent.get() + 1;
                    client.sendLimit("ord-" + i, quickfix.field.Side.BUY, String.format("%d.%02d", 90 + i % 9, i % 100));
                    sent.set(i);
                    try {
                        TimeUnit.MILLISECONDS.sleep(PACE_MILLIS);
                    } catch (final InterruptedException e) {
                        return;
                    }
                }
            }, "order-sender");
            thread.start();
        }

        int sent() {
            return sent.get();
        }

        /** Waits until at least {@code count} orders are sent; returns count. */
        int awaitSent(final int count) throws Exception {
            Await.until(count + " orders sent", 60, () -> sent.get() >= count);
            return count;
        }

        /** Stops sending; returns how many orders were sent. */
        int stop() throws InterruptedException {
            running = false;
            thread.join(TimeUnit.SECONDS.toMillis(10));
            return sent.get();
        }
    }
}
