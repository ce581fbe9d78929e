package io.chronex.runtime.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * TLS between a non-blocking socket and plain buffers: what the socket gives is decrypted into the
 * caller's input buffer, what the caller queues is encrypted on its way out. The buffers are made once
 * and reused (a gateway pools its connections); each new connection gets a new {@link SSLEngine} by
 * {@link #attach}. Handshake work (the key exchange) runs on the caller's thread when the engine asks
 * for it, which everything else on that thread waits for (not measured here; around a millisecond of CPU is typical).
 */
public final class TlsChannel {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    /** Bytes from the socket not yet decrypted (a record arrives in pieces). Write mode. */
    private final ByteBuffer netIn;
    /** Encrypted bytes not yet taken by the socket. Read mode: between position and limit. */
    private final ByteBuffer netOut;
    /** Decrypted bytes the connection's input had no room for yet. Read mode. */
    private final ByteBuffer plain;
    private SSLEngine engine;
    /** The peer said close_notify: nothing more comes in (TLS 1.3 may still take our last words out). */
    private boolean peerClosed;
    /** Encrypted bytes the socket has taken, all told: progress the write-stall clock counts even mid-record. */
    private long sent;

    /** Buffers for records of up to these sizes (an engine's session packet and application buffer sizes). */
    public TlsChannel(final int packetBytes, final int applicationBytes) {
        netIn = ByteBuffer.allocateDirect(packetBytes);
        netOut = ByteBuffer.allocateDirect(packetBytes);
        plain = ByteBuffer.allocateDirect(applicationBytes);
    }

    /** Buffers sized for this engine's records. */
    public static TlsChannel sizedFor(final SSLEngine engine) {
        return new TlsChannel(engine.getSession().getPacketBufferSize(), engine.getSession().getApplicationBufferSize());
    }

    /**
     * Starts over for a new connection. A client's engine starts its handshake here; its first message goes out with
     * the first {@link #write} (which may be of nothing).
     */
    public void attach(final SSLEngine engine) throws SSLException {
        this.engine = engine;
        this.peerClosed = false;
        netIn.clear();
        netOut.clear().flip();
        plain.clear().flip();
        if (engine.getUseClientMode()) {
            engine.beginHandshake();
        }
    }

    /** Whether the handshake is over and application data flows. */
    public boolean established() {
        return engine != null && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
    }

    /**
     * Reads what the socket has, decrypts it and moves as much plain text as fits into {@code in} (write mode).
     *
     * @return the plain bytes added, or -1 once the peer has closed (the socket, or TLS with close_notify)
     */
    public int read(final SocketChannel channel, final ByteBuffer in) throws IOException {
        final int n = channel.read(netIn);
        // Records still in netIn are decrypted even at the end of the stream: complete ones are the peer's last words.
        unwrap(channel);
        final int moved = moveTo(in);
        return moved == 0 && plain.remaining() == 0 && (n < 0 || peerClosed) ? -1 : moved;
    }

    /** Plain text decrypted but not yet handed on (the input was full, or reading paused). */
    public boolean hasPlain() {
        return plain.hasRemaining();
    }

    /** Moves decrypted text that waited into {@code in}; returns how many bytes. */
    public int moveTo(final ByteBuffer in) {
        final int n = Math.min(in.remaining(), plain.remaining());
        if (n > 0) {
            final int limit = plain.limit();
            plain.limit(plain.position() + n);
            in.put(plain);
            plain.limit(limit);
        }
        return n;
    }

    /**
     * Encrypts from {@code src} (read mode) and writes to the socket until the socket takes no more.
     *
     * @return the plain bytes consumed from src (0 while the handshake is not done or the socket is full)
     */
    public int write(final SocketChannel channel, final ByteBuffer src) throws IOException {
        if (!flushNet(channel)) {
            return 0;
        }
        handshake(channel);
        int consumed = 0;
        while (src.hasRemaining() && !engine.isOutboundDone() && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
            netOut.clear();
            final SSLEngineResult r = engine.wrap(src, netOut);
            netOut.flip();
            consumed += r.bytesConsumed();
            if (r.getStatus() != SSLEngineResult.Status.OK || !flushNet(channel)) {
                break;
            }
        }
        return consumed;
    }

    /** Encrypted bytes the socket has taken since this channel was made: grows while output moves, even within a record. */
    public long bytesSent() {
        return sent;
    }

    /** Encrypted output (a handshake message, a record) still waiting for the socket. */
    public boolean hasOutput() {
        return netOut.hasRemaining();
    }

    /** Says goodbye the TLS way (close_notify) if the socket takes it now; the connection is closed after, whatever. */
    public void close(final SocketChannel channel) {
        if (engine == null) {
            return;
        }
        try {
            engine.closeOutbound();
            if (flushNet(channel)) {
                netOut.clear();
                engine.wrap(NOTHING, netOut);
                netOut.flip();
                flushNet(channel);
            }
        } catch (final IOException | RuntimeException ignored) {
            // the connection goes anyway: a goodbye that cannot be said is not worth more than the close
        }
        engine = null;
    }

    private void unwrap(final SocketChannel channel) throws IOException {
        netIn.flip();
        try {
            while (true) {
                plain.compact();
                final SSLEngineResult r;
                try {
                    r = engine.unwrap(netIn, plain);
                } finally {
                    plain.flip();
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    peerClosed = true;
                    handshake(channel); // a TLS 1.2 engine answers close_notify with its own: sent now, not at our close
                    break;
                }
                final boolean stepped = handshake(channel);
                if (r.getStatus() != SSLEngineResult.Status.OK || (r.bytesConsumed() == 0 && r.bytesProduced() == 0 && !stepped)) {
                    // BUFFER_UNDERFLOW: the rest of a record is still on its way; BUFFER_OVERFLOW: the plain text waits for the
                    // connection's input to be handed on first.
                    break;
                }
            }
        } finally {
            netIn.compact();
        }
    }

    /** Does what the handshake asks of this side until it needs the peer; returns whether it did anything. */
    private boolean handshake(final SocketChannel channel) throws IOException {
        boolean did = false;
        while (true) {
            final HandshakeStatus status = engine.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
                did = true;
            } else if (status == HandshakeStatus.NEED_WRAP && !netOut.hasRemaining()) {
                netOut.clear();
                final SSLEngineResult r = engine.wrap(NOTHING, netOut);
                netOut.flip();
                did = true;
                if (!flushNet(channel) || r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return did;
                }
            } else {
                return did;
            }
        }
    }

    /** Writes waiting encrypted bytes; true when none are left. */
    private boolean flushNet(final SocketChannel channel) throws IOException {
        while (netOut.hasRemaining()) {
            final int n = channel.write(netOut);
            if (n == 0) {
                return false;
            }
            sent += n;
        }
        return true;
    }

    /** A handshake that failed, said for the log (the peer spoke plain FIX to a TLS port, an old protocol, ...). */
    public static String reason(final SSLException e) {
        return "TLS: " + e.getMessage();
    }
}
