package io.chronex.engine.cluster;

import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

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
        OrderFlow sender = null;
        try {
            rig.startMembers();
            say("members started; member " + rig.leader() + " leads");
            rig.startBridge();
            rig.startGateway();
            client = new FixClient("ALICE", rig.gatewayPort());
            final FixClient alice = client;
            Await.until("ALICE logged on", 60, alice::loggedOn);
            sender = new OrderFlow(alice, PACE_MILLIS);
            say("ALICE logged on; sending an order every " + PACE_MILLIS + " ms");
            sender.awaitReports(sender.awaitSent(20));

            final int follower = rig.follower();
            rig.killMember(follower);
            say("kill -9 of follower " + follower + " after order " + sender.sent());
            sender.awaitReports(sender.awaitSent(sender.sent() + WHILE_DOWN));
            say("orders answered with member " + follower + " down; restarting it");
            rig.startMember(follower);
            awaitCaughtUp(rig, alice, sender);

            rig.killBridge();
            say("kill -9 of the bridge after order " + sender.sent());
            final int bridgeDown = sender.awaitSent(sender.sent() + WHILE_DOWN);
            rig.startBridge();
            say("bridge restarted after order " + sender.sent());
            sender.awaitReports(bridgeDown);

            rig.killGateway();
            say("kill -9 of the gateway after order " + sender.sent());
            final int gatewayDown = sender.awaitSent(sender.sent() + WHILE_DOWN);
            rig.startGateway();
            say("gateway restarted after order " + sender.sent());
            sender.awaitReports(gatewayDown);
            awaitCaughtUp(rig, alice, sender);

            final int leader = rig.leader();
            rig.killMember(leader);
            say("kill -9 of leader " + leader + " after order " + sender.sent());
            final int leaderDown = sender.awaitSent(sender.sent() + 2 * WHILE_DOWN);
            say("member " + rig.leader() + " leads now");
            sender.awaitReports(leaderDown);
            say("orders answered under the new leader; restarting member " + leader);
            rig.startMember(leader);

            final int total = sender.stop();
            say("sending stopped after order " + total);
            sender.awaitReports(total);
            rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + total);
            say("every member answered all " + total + " orders; stopping everything");
            client.close();
            client = null;
            rig.stopAll();

            sender.checkReports(total);
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
    private void awaitCaughtUp(final ClusterRig rig, final FixClient client, final OrderFlow sender) throws Exception {
        final int through = sender.sent();
        sender.awaitReports(through);
        rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + through);
        say("every running member answered the first " + through + " orders");
    }

    private void say(final String what) {
        System.out.printf("[%7.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
    }
}
