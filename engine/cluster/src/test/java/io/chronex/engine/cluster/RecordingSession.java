package io.chronex.engine.cluster;

import io.aeron.DirectBufferVector;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.cluster.service.ClientSession;
import org.agrona.DirectBuffer;
import java.util.ArrayList;
import java.util.List;

/** A bridge's session as the service sees it: every offer is taken and kept. */
final class RecordingSession implements ClientSession {
    final List<byte[]> sent = new ArrayList<>();

    @Override
    public long offer(final DirectBuffer buffer, final int offset, final int length) {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        sent.add(copy);
        return 64L * sent.size();
    }

    @Override
    public long offer(final DirectBufferVector[] vectors) {
        throw new UnsupportedOperationException();
    }

    @Override
    public long tryClaim(final int length, final BufferClaim bufferClaim) {
        throw new UnsupportedOperationException();
    }

    @Override
    public long id() {
        return 1;
    }

    @Override
    public int responseStreamId() {
        return 102;
    }

    @Override
    public String responseChannel() {
        return "aeron:ipc";
    }

    @Override
    public byte[] encodedPrincipal() {
        return new byte[0];
    }

    @Override
    public void close() {
    }

    @Override
    public boolean isClosing() {
        return false;
    }
}
