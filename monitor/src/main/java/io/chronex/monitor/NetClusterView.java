package io.chronex.monitor;

import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.ClusterCounters;
import io.chronex.runtime.MemberStatus;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The cluster as its members answer over the network: {@code GET /status} on each member's host and status port
 * (ClusterConfig's basePort+5), all members asked at once, each with a connect timeout and a deadline for the whole
 * answer, so a member that is cut off, stopped or sends garbage is "down" within about twice the timeout and never
 * holds up the reader for longer. A member that answers is up, with the counters it read from its own media driver.
 */
public final class NetClusterView implements ClusterReader {
    /** Connect timeout, and again the deadline for the whole answer once connected. */
    public static final int DEFAULT_TIMEOUT_MS = 500;
    /** An answer is ~200 bytes; anything longer than this is not a member's. */
    static final int MAX_ANSWER_BYTES = 16 * 1024;

    private final ClusterConfig config;
    private final int timeoutMs;
    /**
     * One thread per member asked; idle ones end after a few seconds. Not a fixed pool: a name lookup cannot be timed out
     * (the JDK's resolver waits as long as the system's does), and a member whose lookup hangs must not delay the others
     * on the next read.
     */
    private final ExecutorService askers;

    public NetClusterView(final ClusterConfig config) {
        this(config, DEFAULT_TIMEOUT_MS);
    }

    public NetClusterView(final ClusterConfig config, final int timeoutMs) {
        this.config = config;
        this.timeoutMs = timeoutMs;
        this.askers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            final Thread t = new Thread(r, "cluster-status-ask");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public ClusterConfig config() {
        return config;
    }

    /** Asks every member now; returns once each has answered or failed (at most about twice the timeout). */
    @Override
    public ClusterView.Snapshot read() {
        final long nowMs = System.currentTimeMillis();
        final List<Future<ClusterView.Member>> asked = new ArrayList<>(config.members().size());
        for (final ClusterConfig.Member m : config.members()) {
            asked.add(askers.submit(() -> ask(m, timeoutMs)));
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2L * timeoutMs + 250);
        final List<ClusterView.Member> members = new ArrayList<>(asked.size());
        for (int i = 0; i < asked.size(); i++) {
            members.add(collect(config.members().get(i), asked.get(i), deadline));
        }
        return new ClusterView.Snapshot(config.file(), Instant.ofEpochMilli(nowMs), List.copyOf(members), true);
    }

    private ClusterView.Member collect(final ClusterConfig.Member m, final Future<ClusterView.Member> answer, final long deadline) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (final TimeoutException e) {
            answer.cancel(true);
            return down(m, "no answer from " + m.endpoint(m.statusPort()) + ": nothing within " + (2L * timeoutMs) + " ms"
                + " (a name lookup that hangs?)");
        } catch (final ExecutionException e) {
            return down(m, "no answer from " + m.endpoint(m.statusPort()) + ": " + reason(e.getCause()));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            answer.cancel(true);
            return down(m, "not asked (interrupted)");
        }
    }

    /** One member, asked: up with what it said, or down saying why. */
    static ClusterView.Member ask(final ClusterConfig.Member m, final int timeoutMs) {
        final String where = m.endpoint(m.statusPort());
        final Answer answer;
        try {
            answer = fetch(m.host(), m.statusPort(), timeoutMs);
        } catch (final BadAnswer e) {
            return down(m, "bad answer from " + where + ": " + e.getMessage());
        } catch (final IOException e) {
            return down(m, "no answer from " + where + ": " + reason(e));
        }
        if (answer.status() != 200) {
            return down(m, "bad answer from " + where + ": HTTP " + answer.status());
        }
        final MemberStatus status;
        try {
            status = MemberStatus.parse(answer.body());
        } catch (final IllegalArgumentException e) {
            return down(m, "bad answer from " + where + ": " + e.getMessage());
        }
        if (status.member() != m.id()) {
            return down(m, "bad answer from " + where + ": it says it is member " + status.member());
        }
        final ClusterCounters c = status.counters();
        return new ClusterView.Member(m.id(), m.host(), false, null, ClusterView.Liveness.UP, "", status.pid(), ClusterView.NONE,
            c.role(), c.moduleState(), c.electionState(), c.leadershipTermId(), c.commitPosition(), c.electionCount(),
            c.snapshotCount(), status.storage());
    }

    /** An HTTP answer: its status code and body. */
    record Answer(int status, String body) {
    }

    /** Something came, but not a status answer (not HTTP, too long): a peer that is not a member's responder. */
    static final class BadAnswer extends IOException {
        private static final long serialVersionUID = 1L;

        BadAnswer(final String message) {
            super(message);
        }
    }

    /**
     * {@code GET /status} over HTTP/1.0 on a plain socket: connect within {@code timeoutMs}, then the whole answer within
     * {@code timeoutMs} more (each read's timeout is what is left, so a peer sending a byte at a time cannot stretch it),
     * at most {@link #MAX_ANSWER_BYTES}. The JDK's HttpClient would bound neither the time after the headers nor the size.
     */
    static Answer fetch(final String host, final int port, final int timeoutMs) throws IOException {
        try (Socket socket = new Socket()) {
            final InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                throw new UnknownHostException("unknown host " + host);
            }
            socket.connect(address, timeoutMs);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            final String hostHeader = host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
            socket.getOutputStream().write(("GET " + MemberStatus.PATH + " HTTP/1.0\r\nHost: " + hostHeader
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final byte[] bytes = new byte[MAX_ANSWER_BYTES + 1];
            int length = 0;
            while (length < bytes.length) {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    throw new SocketTimeoutException("no whole answer within " + timeoutMs + " ms (" + length + " bytes came)");
                }
                socket.setSoTimeout((int) leftMs);
                final int n;
                try {
                    n = in.read(bytes, length, bytes.length - length);
                } catch (final SocketTimeoutException e) {
                    throw new SocketTimeoutException("no whole answer within " + timeoutMs + " ms (" + length + " bytes came)");
                }
                if (n < 0) {
                    break;
                }
                length += n;
                if (complete(bytes, length)) {
                    break;
                }
            }
            if (length > MAX_ANSWER_BYTES) {
                throw new BadAnswer("longer than " + MAX_ANSWER_BYTES + " bytes");
            }
            if (length == 0) {
                throw new IOException("the connection was closed without an answer");
            }
            return parse(new String(bytes, 0, length, StandardCharsets.ISO_8859_1));
        }
    }

    /** Whether the headers have ended and as many body bytes as Content-Length says have come (without one: wait for the close). */
    private static boolean complete(final byte[] bytes, final int length) {
        final String text = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        final int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        final long contentLength = contentLength(text.substring(0, end));
        return contentLength >= 0 && length - (end + 4) >= contentLength;
    }

    private static long contentLength(final String headers) {
        for (final String line : headers.split("\r\n")) {
            final int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                try {
                    return Long.parseLong(line.substring(colon + 1).trim());
                } catch (final NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The status code and body of what came; {@link BadAnswer} when it is not HTTP. */
    static Answer parse(final String text) throws BadAnswer {
        final int lineEnd = text.indexOf("\r\n");
        final String statusLine = lineEnd < 0 ? text : text.substring(0, lineEnd);
        final String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("\\d{3}")) {
            throw new BadAnswer("not HTTP: '" + MemberStatus.printable(statusLine) + "'");
        }
        final int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new BadAnswer("the answer's headers did not end");
        }
        return new Answer(Integer.parseInt(parts[1]), text.substring(end + 4));
    }

    /** An exception as a reason a person can read: "Connection refused", "connect timed out", "unknown host h". */
    static String reason(final Throwable e) {
        final String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return e instanceof UnknownHostException && !message.startsWith("unknown host") ? "unknown host " + message : message;
    }

    private static ClusterView.Member down(final ClusterConfig.Member m, final String detail) {
        return new ClusterView.Member(m.id(), m.host(), false, null, ClusterView.Liveness.DOWN, detail, ClusterView.NONE,
            ClusterView.NONE, null, null, null, ClusterView.NONE, ClusterView.NONE, ClusterView.NONE, ClusterView.NONE,
            ClusterView.UNKNOWN);
    }
}
