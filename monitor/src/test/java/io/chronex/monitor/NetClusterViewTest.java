package io.chronex.monitor;

import io.aeron.AeronCounters;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;
import io.chronex.engine.cluster.StatusResponder;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.ClusterCounters;
import io.chronex.runtime.MemberStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/cluster-status over the network against members that answer, refuse, never answer, answer garbage, answer a byte
 * at a time, or answer without end: each bad one is down saying why, the good ones are read as their responder says, and
 * the lines and RESULT keep bin/cluster-status's format. Elapsed time is not asserted.
 */
class NetClusterViewTest {
    private static final int TIMEOUT_MS = 300;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        testEnd.countDown();
        for (final AutoCloseable c : open) {
            c.close();
        }
    }

    /** A real member's responder over counters in memory: member {@code id} in {@code role} at term 3. */
    private int responder(final int id, final Cluster.Role role, final long commit) throws IOException {
        return responder(id, role, commit, ClusterView.UNKNOWN);
    }

    /** As above, the member saying how its disk stands ({@code storage=}). */
    private int responder(final int id, final Cluster.Role role, final long commit, final String storage) throws IOException {
        final CountersManager counters = new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024)));
        set(counters, AeronCounters.CLUSTER_NODE_ROLE_TYPE_ID, role.code());
        set(counters, AeronCounters.CLUSTER_CONSENSUS_MODULE_STATE_TYPE_ID, ConsensusModule.State.ACTIVE.code());
        set(counters, AeronCounters.CLUSTER_ELECTION_STATE_TYPE_ID, ElectionState.CLOSED.code());
        set(counters, AeronCounters.CLUSTER_LEADERSHIP_TERM_ID_TYPE_ID, 3);
        set(counters, AeronCounters.CLUSTER_COMMIT_POSITION_TYPE_ID, commit);
        set(counters, AeronCounters.CLUSTER_ELECTION_COUNT_TYPE_ID, 2);
        set(counters, AeronCounters.CLUSTER_SNAPSHOT_COUNTER_TYPE_ID, 1);
        final StatusResponder responder = new StatusResponder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            () -> new MemberStatus(id, ClusterCounters.read(counters), 10, 100 + id, storage));
        open.add(responder);
        return responder.address().getPort();
    }

    private static void set(final CountersManager counters, final int typeId, final long value) {
        counters.setCounterValue(counters.allocate("t" + typeId, typeId), value);
    }

    /** A port nothing listens on (bound, then closed). */
    private static int refusing() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Listens and never accepts: the kernel completes the connection, nobody answers. */
    private int silent() throws IOException {
        final ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(s);
        return s.getLocalPort();
    }

    /**
     * Accepts every connection, reads the request (closing on unread bytes would reset the connection, and the reader could
     * lose what was sent), does {@code what} with it on a thread of its own, then closes it.
     */
    private int peer(final Consumer<Socket> what) throws IOException {
        final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(server);
        final Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    readRequest(s);
                    what.accept(s);
                } catch (final IOException | RuntimeException e) {
                    // closed by the test, or by the reader giving up
                }
            }
        }, "peer-" + server.getLocalPort());
        t.setDaemon(true);
        t.start();
        return server.getLocalPort();
    }

    private static void readRequest(final Socket s) throws IOException {
        s.setSoTimeout(5_000);
        final StringBuilder request = new StringBuilder();
        while (request.indexOf("\r\n\r\n") < 0) {
            final int c = s.getInputStream().read();
            if (c < 0) {
                return;
            }
            request.append((char) c);
        }
    }

    private static void write(final Socket s, final String text) {
        try {
            final OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Released when the test ends, so that a peer holding a connection open lets go (bounded: 60 s at most). */
    private final java.util.concurrent.CountDownLatch testEnd = new java.util.concurrent.CountDownLatch(1);

    private void awaitTestEnd() {
        try {
            testEnd.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Members 0.. on localhost whose status ports are {@code ports} (basePort = status port - 5). */
    private static ClusterConfig config(final int... ports) {
        final List<ClusterConfig.Member> members = new ArrayList<>();
        for (int id = 0; id < ports.length; id++) {
            members.add(new ClusterConfig.Member(id, "localhost", ports[id] - 5));
        }
        return new ClusterConfig(Path.of("cluster.yaml"), members, Path.of("/nonexistent-aeron"), 1 << 20, 2_000, 10_000);
    }

    @Test
    void goodMembersUpAndEveryKindOfBadOneDownSayingWhy() throws Exception {
        final int leader = responder(0, Cluster.Role.LEADER, 5_000);
        final int follower = responder(1, Cluster.Role.FOLLOWER, 4_800, "low");
        final int refused = refusing();
        final int silent = silent();
        final int garbage = peer(s -> write(s, "SSH-2.0-OpenSSH_9.2\r\n"));
        final int notStatus = peer(s -> write(s, "HTTP/1.0 200 OK\r\nContent-Length: 12\r\n\r\nhello world\n"));
        // Part of an answer, then nothing until the test ends: a reader that waits for the rest must give up at its deadline.
        final int slow = peer(s -> {
            write(s, "HTTP/1.0 200 OK\r\n\r\nmember=6 ro");
            awaitTestEnd();
        });
        final int endless = peer(s -> {
            write(s, "HTTP/1.0 200 OK\r\n\r\n");
            for (int i = 0; i < 2_000; i++) {
                write(s, "x=" + "y".repeat(100) + "\n");
            }
        });
        final int wrongMember = responder(5, Cluster.Role.LEADER, 9_999);
        final ClusterView.Snapshot s = new NetClusterView(config(leader, follower, refused, silent, garbage, notStatus, slow, endless,
            wrongMember), TIMEOUT_MS).read();

        assertTrue(s.overNetwork());
        assertEquals(2, s.up());
        assertEquals(0, s.leader().id(), "member 8 says leader but answers as member 5: down, not a second leader");
        final ClusterView.Member m0 = s.members().get(0);
        assertEquals(ConsensusModule.State.ACTIVE, m0.moduleState());
        assertEquals(ElectionState.CLOSED, m0.electionState());
        assertEquals(100, m0.pid());
        assertNull(m0.aeronDir());
        final String text = ClusterStatus.render(s);
        System.out.print(text); // kept in the surefire report
        final String[] lines = text.split("\n");
        assertEquals("member 0  localhost    up    leader    state ACTIVE   election CLOSED                 term 3  commit 5000  lag 0"
            + "  elections 2  snapshots 1", lines[0]);
        assertEquals("member 1  localhost    up    follower  state ACTIVE   election CLOSED                 term 3  commit 4800  lag 200"
            + "  elections 2  snapshots 1  storage low", lines[1]);
        assertEquals("member 2  localhost    down (no answer from localhost:" + refused + ": Connection refused)", lines[2]);
        assertEquals("member 3  localhost    down (no answer from localhost:" + silent + ": no whole answer within " + TIMEOUT_MS
            + " ms (0 bytes came))", lines[3]);
        assertEquals("member 4  localhost    down (bad answer from localhost:" + garbage + ": not HTTP: 'SSH-2.0-OpenSSH_9.2')", lines[4]);
        assertEquals("member 5  localhost    down (bad answer from localhost:" + notStatus + ": 'hello' is not key=value)", lines[5]);
        assertTrue(lines[6].startsWith("member 6  localhost    down (no answer from localhost:" + slow + ": no whole answer within "
            + TIMEOUT_MS + " ms ("), lines[6]);
        assertEquals("member 7  localhost    down (bad answer from localhost:" + endless + ": longer than 16384 bytes)", lines[7]);
        assertEquals("member 8  localhost    down (bad answer from localhost:" + wrongMember + ": it says it is member 5)", lines[8]);
        assertEquals("RESULT leader=0 members=2 term=3 commit_position=5000", lines[9]);
        assertEquals(10, lines.length);
        assertEquals("CLUSTER MEMBER 1 STORAGE LOW", s.alerts().get(0), "what its status port said of its disk");
        assertEquals("CLUSTER MEMBER 2 DOWN (no answer from localhost:" + refused + ": Connection refused)", s.alerts().get(1));
        assertEquals(8, s.alerts().size(), s.alerts().toString());
        assertEquals("leader 0 in term 3, commit position 5000, 2/9 members up", StatusBlock.clusterSummary(s));
    }

    @Test
    void noMemberAnswersNoLeaderExitOne() throws Exception {
        final int refused = refusing();
        final ClusterView.Snapshot s = new NetClusterView(config(refused), TIMEOUT_MS).read();
        assertEquals(List.of("NO CLUSTER LEADER (no member answers)",
            "CLUSTER MEMBER 0 DOWN (no answer from localhost:" + refused + ": Connection refused)"), s.alerts());
        assertEquals(1, ClusterStatus.print(s, new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertTrue(ClusterStatus.render(s).endsWith("RESULT leader=none members=0 term=-1 commit_position=-1\n"));
        final ClusterView.Member unknown = NetClusterView.ask(new ClusterConfig.Member(4, "no-such-host.invalid", 9000), TIMEOUT_MS);
        assertTrue(unknown.describe().startsWith("down (no answer from no-such-host.invalid:9005: unknown host"), unknown.describe());
    }
}
