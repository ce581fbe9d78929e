package io.chronex.engine.cluster;

import io.chronex.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member whose service cannot join the leader's log (Aeron's "Cluster log must be contiguous", issue #1923) restarts itself
 * and catches up, with real processes: three members, a gateway host's bridge and gateway, and a QuickFIX/J client sending
 * resting orders throughout. The suite's case injects the error through a test fault (the real one was not reproduced, see
 * docs/cluster.md); the trial tries to cause the real one with a slow follower and a kill -9 of the leader.
 */
class ClusterCatchUpTest {
    private static final int FAULTY = 2;
    private static final Pattern RUNNING = Pattern.compile("cluster-node " + FAULTY + " running");
    /** One order every 20 ms while the member restarts itself, as ClusterKillTest. */
    private static final long PACE_MILLIS = 20;
    /** The commands member 2 applies before the injected error: the funding and the first orders, so it strikes under load. */
    private static final int STUCK_AFTER = ClusterRig.FUNDING_COMMANDS + 40;

    @TempDir
    Path tmp;

    private final long start = System.nanoTime();

    /**
     * Member 2's service reports the contiguous-log error after {@link #STUCK_AFTER} commands; bin/cluster-node must close the
     * member and start it again in the same process, and the member must then replay its log, rejoin and answer every order
     * once, its journal identical to the others'. Without the restart, member 2 would still be running with the error noted
     * but not start twice, and the test fails on that. Then, under the same load, another follower is replaced on an empty
     * directory and again on a copy of the leader's log ({@link #replaceADeadFollower}).
     */
    @Test
    void aMemberThatCannotJoinTheLogRestartsItselfAndCatchesUp() throws Exception {
        final ClusterRig rig = new ClusterRig(tmp, "  - {senderCompId: ALICE, account: 101}\n");
        rig.memberFlags(FAULTY, "-D" + TestFaults.STUCK_PROPERTY + "=" + STUCK_AFTER);
        runUnderLoad(rig, 60, 60, sender -> {
            rig.awaitMemberLine(FAULTY, "starting the member again");
            Await.until("member " + FAULTY + " running a second time", 60, () -> count(RUNNING, rig.memberOutput(FAULTY)) == 2);
            say("member " + FAULTY + " restarted itself after order " + sender.sent());
            replaceADeadFollower(rig, sender);
        });
        final String output = rig.memberOutput(FAULTY);
        assertTrue(output.contains("Cluster log must be contiguous") && output.contains(TestFaults.INJECTED), output);
        assertEquals(1, count(Pattern.compile("starting the member again"), output), "member " + FAULTY + " restarted itself once");
    }

    /**
     * docs/cluster.md's two ways to replace a member whose disk is lost, in the same run (a rig of its own would cost the suite
     * another minute), on the follower that is not member {@link #FAULTY}, while the orders keep coming: killed with -9, its
     * whole data directory deleted and the same member id started on an empty directory (it copies the log from the others);
     * then the same again, but started on what bin/cluster-copy-member copied from the leader's directory as it ran (it replays
     * the copied log into new queues and catches up from where the copy ended). Each time it must end with the same journal
     * (runUnderLoad's checks).
     */
    private void replaceADeadFollower(final ClusterRig rig, final OrderFlow sender) throws Exception {
        final int leader = rig.leader();
        final int replaced = leader != 0 && FAULTY != 0 ? 0 : leader != 1 && FAULTY != 1 ? 1 : 2;
        rig.killMember(replaced);
        deleteTree(rig.memberDir(replaced));
        say("member " + replaced + " killed and its directory deleted after order " + sender.sent() + "; starting it on an empty one");
        rig.startMember(replaced);
        final int answered = sender.awaitSent(sender.sent() + 50);
        sender.awaitReports(answered);
        // Caught up from nothing: it has applied every order the client was told about, the funding before them.
        rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + answered);
        rig.killMember(replaced);
        deleteTree(rig.memberDir(replaced));
        final MemberCopy.Copied copied = MemberCopy.copy(rig.memberDir(leader), rig.memberDir(replaced), replaced);
        say("member " + replaced + " killed and its directory deleted again after order " + sender.sent() + "; starting it on a copy"
            + " of leader " + leader + "'s log (" + copied.files() + " files, " + copied.bytes() + " bytes)");
        rig.startMember(replaced);
        assertTrue(rig.awaitMemberLine(replaced, "node journal holds the log through position -1").contains("position -1"),
            "the copy holds no queues: the replacement writes its journal again from the copied log");
        sender.awaitReports(sender.awaitSent(sender.sent() + 50));
        say("member " + replaced + " runs again; the orders go on");
    }

    private static void deleteTree(final Path root) throws java.io.IOException {
        try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(root)) {
            for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(p);
            }
        }
        assertTrue(!java.nio.file.Files.exists(root), root + " is gone");
    }

    /**
     * A trial, not in the suite (about two minutes on the 2-core VM; {@code -Dchronex.catchUpTrial=true}): member 2's service
     * sleeps 50 ms a command while orders come every 5 ms, and the leader is killed with -9 while member 2 is hundreds of commands
     * behind the commit position. It passes when every member ends up with every order once, and says whether member 2 hit
     * Aeron's error (and restarted itself) on the way; it has not so far.
     */
    @Test
    @EnabledIfSystemProperty(named = "chronex.catchUpTrial", matches = "true")
    void aSlowFollowerWhenTheLeaderDiesCatchesUp() throws Exception {
        final ClusterRig rig = new ClusterRig(tmp, "  - {senderCompId: ALICE, account: 101}\n");
        rig.memberFlags(FAULTY, "-D" + TestFaults.DELAY_PROPERTY + "=50000");
        runUnderLoad(rig, 5, 600, sender -> {
            final int leader = rig.leader();
            say("member " + FAULTY + " has answered " + ClusterRig.eventCount(rig.memberDir(FAULTY)) + " commands; kill -9 of leader "
                + leader + " after order " + sender.sent());
            rig.killMember(leader);
            sender.awaitReports(sender.awaitSent(sender.sent() + 100));
            say("member " + rig.leader() + " leads now; restarting member " + leader);
            rig.startMember(leader);
        });
        say("member " + FAULTY + " hit Aeron's contiguous-log error: " + rig.memberOutput(FAULTY).contains("must be contiguous"));
    }

    /** What a scenario does while the orders come, once {@code before} of them are answered. */
    private interface Scenario {
        void run(OrderFlow sender) throws Exception;
    }

    /**
     * Starts the members (member {@link #FAULTY} a follower), the bridge, the gateway and a client sending an order every
     * {@code paceMillis}; once {@code before} orders are answered runs {@code scenario}, then stops sending and checks that the
     * client got one New per order and every member's and the host's journals hold each once and verify.
     */
    private void runUnderLoad(final ClusterRig rig, final long paceMillis, final int before, final Scenario scenario) throws Exception {
        FixClient client = null;
        OrderFlow sender = null;
        try {
            rig.startMembers();
            if (rig.leader() == FAULTY) {
                // The faulty member must be a follower: another member leads once it is gone, and started again it joins as one.
                rig.killMember(FAULTY);
                say("member " + rig.leader() + " leads after member " + FAULTY + " was killed");
                rig.startMember(FAULTY);
            }
            say("members started; member " + rig.leader() + " leads");
            rig.startBridge();
            rig.startGateway();
            client = new FixClient("ALICE", rig.gatewayPort());
            final FixClient alice = client;
            Await.until("ALICE logged on", 60, alice::loggedOn);
            sender = new OrderFlow(alice, paceMillis);
            sender.awaitReports(sender.awaitSent(before));
            scenario.run(sender);
            final int total = sender.stop();
            say("sending stopped after order " + total);
            sender.awaitReports(total);
            rig.awaitMembersAnswered(ClusterRig.FUNDING_COMMANDS + total);
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

    private static int count(final Pattern pattern, final String text) {
        final Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private void say(final String what) {
        System.out.printf("[%7.1f s] %s%n", (System.nanoTime() - start) / 1e9, what);
    }
}
