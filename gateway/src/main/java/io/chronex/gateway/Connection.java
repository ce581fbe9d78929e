package io.chronex.gateway;

import io.chronex.runtime.tls.TlsChannel;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One TCP connection and its buffers. Connections are pooled and reused, so thousands of connects
 * and disconnects leave memory flat. Output that the socket does not take at once waits in
 * {@link #pending}; once that is full the session's further output waits in the outbound store
 * ({@link OutboundFlow}) and a client that takes nothing for long is cut off by the write-stall timer.
 */
final class Connection {
    final ByteBuffer in;
    final UnsafeBuffer inBuffer;
    final ByteBuffer pending;
    /** Null on a plain TCP port; on a TLS port the encryption between the socket and {@link #in} and {@link #pending}. */
    final TlsChannel tls;
    SocketChannel channel;
    SelectionKey key;
    FixSession session;
    String remote;
    /** What failed logons from this peer are counted by: its IPv4 address, or its IPv6 /64 (LogonGuard.addressKey). */
    String host = "";
    long connectedNanos;
    boolean open;
    /** After we sent a Logout or a fatal error: close once the output is flushed, or at this deadline. */
    long closeAtNanos;
    /** Set while output waits for the end of the gateway's loop pass (see {@link #flush}). */
    boolean dirty;
    /** The session is owed output that waits in the outbound store (behind, or a resend): keep asking for OP_WRITE. */
    boolean backlog;
    /** When output started waiting with the socket taking none of it; 0 while it moves (the write-stall timer's clock). */
    long stalledSinceNanos;
    /** False while the gateway reads no client input (the disk is nearly full): the kernel's buffers then push back on the client. */
    boolean reading = true;

    Connection(final int inCapacity, final int pendingCapacity, final TlsChannel tls) {
        in = ByteBuffer.allocateDirect(inCapacity);
        inBuffer = new UnsafeBuffer(in);
        pending = ByteBuffer.allocateDirect(pendingCapacity);
        this.tls = tls;
    }

    void attach(final SocketChannel channel, final SelectionKey key, final String remote, final long nowNanos) {
        this.channel = channel;
        this.key = key;
        this.remote = remote;
        this.connectedNanos = nowNanos;
        this.session = null;
        this.open = true;
        this.closeAtNanos = 0;
        this.dirty = false;
        this.backlog = false;
        this.stalledSinceNanos = 0;
        this.reading = true;
        in.clear();
        pending.clear();
    }

    /**
     * Queues bytes for the next {@link #flush}: everything a pass of the gateway loop sends to one
     * client goes out in one system call.
     *
     * @return false when the pending buffer overflowed (the caller cuts the client off)
     */
    boolean send(final ByteBuffer src) {
        if (src.remaining() > pending.remaining()) {
            return false;
        }
        pending.put(src);
        return true;
    }

    /** Nothing waits to be written: no queued output and, on TLS, no encrypted bytes the socket has not taken. */
    boolean outputDone() {
        return pending.position() == 0 && (tls == null || !tls.hasOutput());
    }

    /** Writes what is pending; true when all of it went (else the selector says when to go on). */
    boolean flush() throws IOException {
        dirty = false;
        if (outputDone()) {
            stalledSinceNanos = 0;
            interest();
            return true;
        }
        pending.flip();
        final long sentBefore = tls == null ? 0 : tls.bytesSent();
        final int written = tls == null ? channel.write(pending) : tls.write(channel, pending);
        // On TLS the socket may take part of a record without taking any new plain text: that is progress too.
        final boolean moved = written > 0 || tls != null && tls.bytesSent() != sentBefore;
        pending.compact();
        if (outputDone()) {
            stalledSinceNanos = 0;
            interest();
            return true;
        }
        if (moved || stalledSinceNanos == 0) {
            // The clock runs only while the socket takes nothing at all.
            stalledSinceNanos = System.nanoTime();
        }
        interest();
        return false;
    }

    void interest() {
        final int read = reading ? SelectionKey.OP_READ : 0;
        final int ops = outputDone() && !backlog ? read : read | SelectionKey.OP_WRITE;
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }
}
