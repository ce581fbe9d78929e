package io.chronex.engine.cluster;

import io.aeron.AeronCounters;
import io.aeron.cluster.service.Cluster;
import io.chronex.runtime.ClusterCounters;
import io.chronex.runtime.MemberStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member's status responder on counters in memory: GET /status answers the counters as they are at the request, any
 * other path is 404 and any other method 405; clients that send half a request and stay do not stop the next one being
 * answered (they are cut off); once closed it neither answers nor reads the counters again.
 */
class StatusResponderTest {
    private final CountersManager counters = new CountersManager(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024)));
    private final AtomicInteger reads = new AtomicInteger();

    private StatusResponder start() throws IOException {
        return new StatusResponder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), () -> {
            reads.incrementAndGet();
            return new MemberStatus(2, ClusterCounters.read(counters), 17, 4711);
        });
    }

    @Test
    void answersTheCountersAsTheyAreNow() throws Exception {
        final int role = counters.allocate("role", AeronCounters.CLUSTER_NODE_ROLE_TYPE_ID);
        final int term = counters.allocate("term", AeronCounters.CLUSTER_LEADERSHIP_TERM_ID_TYPE_ID);
        counters.setCounterValue(role, Cluster.Role.FOLLOWER.code());
        counters.setCounterValue(term, 4);
        try (StatusResponder responder = start()) {
            final String first = request(responder, "GET /status HTTP/1.0\r\n\r\n");
            assertTrue(first.startsWith("HTTP/1.1 200 "), first);
            assertTrue(first.contains("Content-type: text/plain; charset=us-ascii\r\n"), first);
            final MemberStatus status = MemberStatus.parse(body(first));
            assertEquals(2, status.member());
            assertEquals(Cluster.Role.FOLLOWER, status.counters().role());
            assertEquals(4, status.counters().leadershipTermId());
            assertEquals(-1, status.counters().commitPosition(), "no such counter (yet)");
            assertEquals(17, status.applied());
            assertEquals(4711, status.pid());

            counters.setCounterValue(role, Cluster.Role.LEADER.code());
            counters.setCounterValue(term, 5);
            final String http11 = request(responder, "GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            final MemberStatus next = MemberStatus.parse(body(http11));
            assertEquals(Cluster.Role.LEADER, next.counters().role());
            assertEquals(5, next.counters().leadershipTermId());

            assertTrue(request(responder, "GET /metrics HTTP/1.0\r\n\r\n").startsWith("HTTP/1.1 404 "));
            assertTrue(request(responder, "GET / HTTP/1.0\r\n\r\n").startsWith("HTTP/1.1 404 "));
            final String post = request(responder, "POST /status HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi");
            assertTrue(post.startsWith("HTTP/1.1 405 ") && post.contains("Allow: GET, HEAD\r\n"), post);
            final String head = request(responder, "HEAD /status HTTP/1.0\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200 ") && body(head).isEmpty(), head);
        }
    }

    @Test
    void halfSentRequestsAreCutOffAndTheNextIsAnswered() throws Exception {
        final List<Socket> stalled = new ArrayList<>();
        try (StatusResponder responder = start()) {
            // More than the one thread and its queue can hold: some are refused outright, the rest cut off after the limit.
            for (int i = 0; i < StatusResponder.MAX_QUEUED + 4; i++) {
                final Socket s = new Socket(responder.address().getAddress(), responder.address().getPort());
                s.getOutputStream().write("GET /status HTTP/1.1\r\nHost: ".getBytes(StandardCharsets.US_ASCII));
                stalled.add(s);
            }
            // The next whole request is answered once the half-sent ones are cut (MAX_REQUEST_SECONDS; no time asserted).
            final String answer = request(responder, "GET /status HTTP/1.0\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
            assertEquals(2, MemberStatus.parse(body(answer)).member());
        } finally {
            for (final Socket s : stalled) {
                s.close();
            }
        }
    }

    @Test
    void closedItNeitherAnswersNorReads() throws Exception {
        final StatusResponder responder = start();
        final InetSocketAddress address = responder.address();
        assertTrue(request(responder, "GET /status HTTP/1.0\r\n\r\n").startsWith("HTTP/1.1 200 "));
        responder.close();
        final int readsBefore = reads.get();
        assertThrows(ConnectException.class, () -> new Socket(address.getAddress(), address.getPort()).close());
        assertEquals(readsBefore, reads.get());
    }

    /**
     * Sends {@code request} and reads the whole answer, retrying a connection the server closed without one (a request
     * refused while its queue was full); up to 30 s.
     */
    private static String request(final StatusResponder responder, final String request) throws IOException {
        final long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try (Socket s = new Socket(responder.address().getAddress(), responder.address().getPort())) {
                s.setSoTimeout(30_000);
                final OutputStream out = s.getOutputStream();
                out.write(request.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                final InputStream in = s.getInputStream();
                final String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
                if (!answer.isEmpty() || System.currentTimeMillis() > deadline) {
                    return answer;
                }
            } catch (final IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
            }
        }
    }

    private static String body(final String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }
}
