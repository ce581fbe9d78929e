package io.chronex.gateway;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One TCP connection and its buffers. Connections are pooled and reused, so thousands of connects
 * and disconnects leave memory flat. Output that the socket does not take at once waits in
 * {@link #pending}; a client that lets it fill up is cut off (it gets everything again through a
 * resend when it logs back on).
 */
final class Connection {
    final ByteBuffer in;
    final UnsafeBuffer inBuffer;
    final ByteBuffer pending;
    SocketChannel channel;
    SelectionKey key;
    FixSession session;
    String remote;
    long connectedNanos;
    boolean open;
    /** After we sent a Logout or a fatal error: close once the output is flushed, or at this deadline. */
    long closeAtNanos;
    /** Set while output waits for the end of the gateway's loop pass (see {@link #flush}). */
    boolean dirty;

    Connection(final int inCapacity, final int pendingCapacity) {
        in = ByteBuffer.allocateDirect(inCapacity);
        inBuffer = new UnsafeBuffer(in);
        pending = ByteBuffer.allocateDirect(pendingCapacity);
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

    /** Writes what is pending; true when all of it went (else the selector says when to go on). */
    boolean flush() throws IOException {
        dirty = false;
        if (pending.position() == 0) {
            return true;
        }
        pending.flip();
        channel.write(pending);
        pending.compact();
        if (pending.position() == 0) {
            if (key.interestOps() != SelectionKey.OP_READ) {
                key.interestOps(SelectionKey.OP_READ);
            }
            return true;
        }
        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        return false;
    }
}
