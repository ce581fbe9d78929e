package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.runtime.tls.TlsChannel;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * The gateway's connections and framing: accepts TCP connections without blocking, reads them,
 * cuts the bytes into FIX messages (by CheckSum, see {@link FixDecoder#frame}), hands each whole
 * message on, writes queued output once per loop pass, and closes connections. It knows nothing of
 * FIX sessions beyond which one a connection belongs to; connection-level deadlines (no Logon in
 * time, a Logout that was never answered) are kept here.
 */
final class Framer implements AutoCloseable {
    /** What the framer hands on. */
    interface Handler {
        /** One whole message, in c.inBuffer at offset. */
        void onMessage(Connection c, int offset, int length);

        /** A session's connection has closed (the session is no longer logged on). */
        void onDisconnected(FixSession session);

        /** Bytes between a logged-on session's messages that cannot start one, dropped from the stream. */
        void onGarbage(Connection c, int bytes);

        /** Whether the next message may be handled now; false leaves it, and what follows, in the buffer until reading resumes. */
        boolean mayHandle();
    }

    private static final long SECOND = 1_000_000_000L;
    /** Output queued per connection; beyond it a session's output waits in the outbound store ({@link OutboundFlow}). */
    private static final int PENDING_BYTES = 1 << 20;
    /** Connections taken per pass at most, so a flood of connects cannot starve the sessions already logged on. */
    private static final int ACCEPTS_PER_PASS = 64;

    private final GatewayConfig config;
    private final Gateway.Log log;
    private final Selector selector;
    private final ServerSocketChannel server;
    private SelectionKey serverKey;
    /** Client input is not read and no connection accepted (see {@link #pauseReading}). */
    private boolean readingPaused;
    private final ArrayDeque<Connection> freeConnections = new ArrayDeque<>();
    private final List<Connection> connections = new ArrayList<>();
    private final ArrayList<Connection> dirty = new ArrayList<>();
    private final Consumer<SelectionKey> onKey = this::onKey;
    private final PendingLogons<Connection> pendingLogons;
    private Handler handler;
    private OutboundFlow flow;
    private int work;
    /** TLS buffer sizes (the records the JDK's engine makes), or 0 on a plain port. */
    private final int tlsPacketBytes;
    private final int tlsApplicationBytes;

    /** When the message being handled was read: System.nanoTime and wall-clock epoch nanoseconds. */
    long readNanos;
    long readEpochNanos;
    /**
     * The receipt wall clock the journal records for audit, at nanosecond resolution without allocating: the epoch
     * offset sampled once (and again as Agrona's clock decides) plus System.nanoTime. Milliseconds, as
     * currentTimeMillis gives, are too coarse for an order record (MiFID II RTS 25 asks venues for microseconds).
     */
    final EpochNanoClock wallClock = new OffsetEpochNanoClock();

    long connectionsAccepted;
    long connectionsDropped;
    long slowConsumers;
    long sessionErrors;

    Framer(final GatewayConfig config, final Gateway.Log log) throws IOException {
        this.config = config;
        this.log = log;
        checkMemory(config);
        this.pendingLogons = new PendingLogons<>(config.maxUnauthenticatedPerAddress());
        final SSLEngine probe = config.tls() == null ? null : config.tls().serverEngine();
        this.tlsPacketBytes = probe == null ? 0 : probe.getSession().getPacketBufferSize();
        this.tlsApplicationBytes = probe == null ? 0 : probe.getSession().getApplicationBufferSize();
        this.selector = Selector.open();
        this.server = ServerSocketChannel.open();
    }

    /** Binds the port and starts accepting; done last at start, once recovery has put everything back. */
    void listen(final int port) throws IOException {
        server.bind(new InetSocketAddress(config.bind(), port));
        server.configureBlocking(false);
        serverKey = server.register(selector, SelectionKey.OP_ACCEPT);
    }

    /**
     * Stops reading client sockets and accepting connections, so no input creates output: what clients send waits in the
     * kernel's buffers and TCP pushes back on them, nothing is lost. Output already owed (a resend, a backlog) still drains.
     */
    void pauseReading() {
        setReading(false);
    }

    /**
     * Reads and accepts again after {@link #pauseReading}: messages left in a connection's buffer when it paused are handled
     * now, and input that waited in the sockets is read at the next poll.
     */
    void resumeReading() {
        setReading(true);
        readNanos = System.nanoTime();
        readEpochNanos = wallClock.nanoTime();
        for (int i = connections.size() - 1; i >= 0; i--) {
            final Connection c = connections.get(i);
            if (c.open && (c.in.position() > 0 || c.tls != null && c.tls.hasPlain())) {
                try {
                    handOn(c);
                } catch (final RuntimeException e) {
                    connectionError(c, e);
                }
            }
        }
    }

    private void setReading(final boolean reading) {
        if (readingPaused == !reading) {
            return;
        }
        readingPaused = !reading;
        if (serverKey != null && serverKey.isValid()) {
            serverKey.interestOps(reading ? SelectionKey.OP_ACCEPT : 0);
        }
        for (int i = 0; i < connections.size(); i++) {
            final Connection c = connections.get(i);
            c.reading = reading;
            if (c.open && c.key != null && c.key.isValid()) {
                c.interest();
            }
        }
    }

    private static int inputBytes(final GatewayConfig config) {
        return config.maxMessageLength() * 2;
    }

    /** Throws, saying what to change, when maxConnections connections' buffers do not fit in this JVM's direct memory. */
    static void checkMemory(final GatewayConfig config) {
        final long tls = config.tls() == null ? 0 : tlsBytes(config.tls().serverEngine());
        DirectMemoryBudget.check(config.maxConnections(), DirectMemoryBudget.perConnection(inputBytes(config), PENDING_BYTES) + tls,
            DirectMemoryBudget.jvmLimit());
    }

    /** A TLS connection's own buffers: encrypted in, encrypted out, and decrypted text waiting for the input buffer. */
    private static long tlsBytes(final SSLEngine engine) {
        return 2L * engine.getSession().getPacketBufferSize() + engine.getSession().getApplicationBufferSize();
    }

    /**
     * Before anything is created on disk: the buffers fit, and the port can be listened on now (bound and let go at once; the
     * real bind comes last at start, after recovery, and still reports a port taken in between).
     */
    static void preflight(final GatewayConfig config, final int port) throws IOException {
        checkMemory(config);
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            probe.bind(new InetSocketAddress(config.bind(), port));
        }
    }

    /** What the framer drives: set once, before {@link #listen}. */
    void wire(final Handler handler, final OutboundFlow flow) {
        this.handler = handler;
        this.flow = flow;
    }

    /** The port actually bound (useful with port 0). */
    int port() {
        return server.socket().getLocalPort();
    }

    int connectionCount() {
        return connections.size();
    }

    /** Accepts and reads whatever is ready; returns how many keys were handled. */
    int poll() throws IOException {
        work = 0;
        selector.selectNow(onKey);
        return work;
    }

    /** A connection with output queued in this pass. */
    void toFlush(final Connection c) {
        dirty.add(c);
    }

    /** Writes the output queued in this pass, one system call per connection. */
    void flushAll() {
        for (int i = 0; i < dirty.size(); i++) {
            final Connection c = dirty.get(i);
            if (!c.open) {
                continue;
            }
            try {
                flow.drain(c);
                if (c.closeAtNanos != 0 && c.outputDone() && !c.backlog) {
                    close(c, null);
                }
            } catch (final IOException e) {
                drop(c, "write failed: " + e.getMessage());
            } catch (final RuntimeException e) {
                connectionError(c, e);
            }
        }
        dirty.clear();
    }

    private void onKey(final SelectionKey key) {
        work++;
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            // A burst of connections (every client of a restarted gateway at once) is taken in one pass, not one per
            // pass: between passes an idle gateway may park, and the kernel's accept backlog is small.
            for (int i = 0; i < ACCEPTS_PER_PASS && !readingPaused && accept(); i++) {
                work++;
            }
            return;
        }
        final Connection c = (Connection) key.attachment();
        try {
            if (key.isWritable()) {
                flow.drain(c);
                if (c.closeAtNanos != 0 && c.outputDone() && !c.backlog) {
                    close(c, null);
                    return;
                }
            }
            if (c.open && c.reading && key.isReadable()) {
                read(c);
            }
        } catch (final SSLException e) {
            drop(c, TlsChannel.reason(e));
        } catch (final IOException e) {
            drop(c, e.getMessage());
        } catch (final RuntimeException e) {
            connectionError(c, e);
        }
    }

    /**
     * Something went wrong with one connection's work (a bug, a damaged store entry): that
     * connection is dropped with the reason in the log, and every other session goes on. The
     * session gets what it missed by resend when it logs on again.
     */
    void connectionError(final Connection c, final RuntimeException e) {
        sessionErrors++;
        final StringBuilder where = new StringBuilder();
        final StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < Math.min(4, trace.length); i++) {
            where.append(i == 0 ? " at " : " < ").append(trace[i]);
        }
        log.log((c.session != null ? "session " + c.session.name : "connection " + c.remote) + ": error, connection dropped: " + e
            + where);
        try {
            drop(c, "error: " + e);
        } catch (final RuntimeException again) {
            log.log("dropping " + c.remote + " failed too: " + again);
        }
    }

    /** Takes one pending connection (accepted, or refused when the table is full); false when none is waiting. */
    private boolean accept() {
        try {
            final SocketChannel channel = server.accept();
            if (channel == null) {
                return false;
            }
            connectionsAccepted++;
            final InetAddress address = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
            // Sockets that never log on must not keep real clients out (see PendingLogons).
            final Connection evicted = pendingLogons.evictFor(address, connections.size() >= config.maxConnections());
            if (evicted != null) {
                drop(evicted, pendingLogons.reason());
            }
            Connection c = freeConnections.poll();
            if (c == null && connections.size() < config.maxConnections()) {
                // Created on first need and pooled from then on, so connection churn allocates nothing.
                c = new Connection(inputBytes(config), PENDING_BYTES, config.tls() == null ? null
                    : new TlsChannel(tlsPacketBytes, tlsApplicationBytes));
            }
            if (c == null) {
                log.log("refused a connection from " + channel.getRemoteAddress() + ": already " + config.maxConnections()
                    + " connections (maxConnections)");
                channel.close();
                return true;
            }
            final SelectionKey key;
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                key = channel.register(selector, SelectionKey.OP_READ, c);
            } catch (final IOException e) {
                // The pooled connection goes back and the socket is closed: nothing is held for a connection never served.
                freeConnections.add(c);
                channel.close();
                throw e;
            }
            c.attach(channel, key, String.valueOf(channel.getRemoteAddress()), System.nanoTime());
            if (c.tls != null) {
                c.tls.attach(config.tls().serverEngine());
            }
            c.host = LogonGuard.addressKey(address);
            connections.add(c);
            pendingLogons.add(c, address);
            return true;
        } catch (final IOException e) {
            log.log("accept failed: " + e.getMessage());
            return false;
        }
    }

    private void read(final Connection c) throws IOException {
        final int n = c.tls == null ? c.channel.read(c.in) : c.tls.read(c.channel, c.in);
        if (n < 0) {
            drop(c, "the client closed the connection");
            return;
        }
        if (c.tls != null) {
            // The handshake may have left bytes for the socket: ask to be told when it takes them.
            c.interest();
        }
        if (n == 0) {
            return;
        }
        readNanos = System.nanoTime();
        readEpochNanos = wallClock.nanoTime();
        handOn(c);
    }

    /** Hands on the messages in the connection's input and, on TLS, the decrypted text that waited for room in it. */
    private void handOn(final Connection c) {
        if (c.tls != null) {
            c.tls.moveTo(c.in);
        }
        frames(c);
        while (c.tls != null && c.tls.hasPlain() && c.open && c.closeAtNanos == 0 && c.reading && handler.mayHandle()
            && c.tls.moveTo(c.in) > 0) {
            frames(c);
        }
    }

    /** Hands on each whole message in the connection's buffer, keeping the rest (part of a message, or all after a pause). */
    private void frames(final Connection c) {
        final int limit = c.in.position();
        int position = 0;
        while (position < limit && c.open && c.closeAtNanos == 0 && c.reading && handler.mayHandle()) {
            final int length = FixDecoder.frame(c.inBuffer, position, limit - position, config.maxMessageLength());
            if (length == 0) {
                break;
            }
            if (length == FixDecoder.FRAME_GARBAGE && c.session != null) {
                // Between a session's messages garbage is skipped like a garbled message (FIX 4.4 Volume 2): the next
                // message that parses shows the gap, and the resend brings what was lost. Before a Logon it is not a client.
                final int skipped = FixDecoder.garbageLength(c.inBuffer, position, limit - position);
                handler.onGarbage(c, skipped);
                position += skipped;
                continue;
            }
            if (length < 0) {
                drop(c, length == FixDecoder.FRAME_TOO_LONG ? "message longer than maxMessageLength " + config.maxMessageLength()
                    : "bytes that are not a FIX message");
                return;
            }
            handler.onMessage(c, position, length);
            position += length;
        }
        if (!c.open) {
            return;
        }
        // Keep an incomplete message at the start of the buffer.
        if (position > 0) {
            c.inBuffer.putBytes(0, c.inBuffer, position, limit - position);
            c.in.position(limit - position);
        }
        if (!c.in.hasRemaining() && c.reading) {
            drop(c, "message longer than the input buffer");
        }
    }

    /** The connection's Logon was accepted: it no longer counts as waiting for one. */
    void loggedOn(final Connection c) {
        pendingLogons.remove(c);
    }

    /** Connection deadlines: a socket that takes none of our output, a Logout nobody answered, a connection that never logged on. */
    void onTimer(final long now) {
        for (int i = connections.size() - 1; i >= 0; i--) {
            final Connection c = connections.get(i);
            if (c.stalledSinceNanos != 0 && now - c.stalledSinceNanos > config.writeStallSeconds() * SECOND) {
                slowConsumers++;
                drop(c, "slow consumer: took none of our output for " + config.writeStallSeconds() + " s (" + c.pending.position()
                    + " bytes waiting" + (c.backlog ? ", more in the store" : "") + "); it gets the rest by resend when it logs on again");
            } else if (c.closeAtNanos != 0 && now >= c.closeAtNanos) {
                close(c, "closed after Logout");
            } else if (c.session == null && now - c.connectedNanos > config.logonTimeoutSeconds() * SECOND) {
                drop(c, "no Logon within " + config.logonTimeoutSeconds() + " s");
            }
        }
    }

    /** Cuts a connection off (an error, a misbehaving client); other sessions are not touched. */
    void drop(final Connection c, final String why) {
        if (!c.open) {
            return;
        }
        connectionsDropped++;
        close(c, why);
    }

    /** Closes a connection (logging why, if given) and returns it to the pool. */
    void close(final Connection c, final String why) {
        if (!c.open) {
            return;
        }
        c.open = false;
        final FixSession s = c.session;
        if (why != null) {
            log.log((s != null ? "session " + s.name : "connection " + c.remote) + " disconnected: " + why);
        }
        try {
            if (c.tls != null) {
                c.tls.close(c.channel);
            }
            c.key.cancel();
            c.channel.close();
        } catch (final IOException ignored) {
            // closing anyway
        }
        connections.remove(c);
        pendingLogons.remove(c);
        c.session = null;
        c.channel = null;
        c.key = null;
        freeConnections.add(c);
        if (s != null) {
            s.connection = null;
            handler.onDisconnected(s);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            selector.close();
        } catch (final IOException ignored) {
            // closing anyway
        }
    }
}
