package io.chronex.engine.cluster;

import io.aeron.Publication;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.chronex.api.Result;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.cluster.ClusterMessages;
import net.openhft.chronicle.bytes.Bytes;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What a member's service sends a bridge over the cluster's egress, built in one reused buffer: a RESULT (the 16-byte
 * header, then an events excerpt naming the command by its host's journal index) or a WELCOME. The engine's service and
 * the echo benchmark service both send through it, so their egress is the same. Service thread only.
 */
final class Egress {
    /** The engine's service: how long an answer to a back-pressured bridge is retried before the bridge is left to ask again. */
    static final long ENGINE_RETRY_NANOS = 100_000_000L;

    /** How long an offer back-pressured is retried ({@link Long#MAX_VALUE}: until the bridge takes it or is gone). */
    private final long retryNanos;
    private final Bytes<?> out = Bytes.allocateElasticDirect(4096);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private Cluster cluster;
    private long dropped;

    Egress(final long retryNanos) {
        this.retryNanos = retryNanos;
    }

    /** The cluster whose idle strategy a back-pressured offer waits with (null: none, for a test's mocked sessions). */
    void start(final Cluster cluster) {
        this.cluster = cluster;
    }

    /** Sends one result to the bridge, naming the command by its host's journal index ({@code sequence}). */
    void result(final ClientSession session, final int source, final long sequence, final EventHeader h, final Result r) {
        final long nodeIndex = h.commandIndex;
        out.clear();
        out.writeSkip(ClusterMessages.HEADER_LENGTH);
        h.commandIndex = sequence;
        EventCodec.write(out, h, r);
        h.commandIndex = nodeIndex;
        final int length = (int) out.writePosition();
        ClusterMessages.header(view(length), 0, ClusterMessages.RESULT, source, sequence);
        offer(session, length);
    }

    /** Sends a WELCOME: the source's last applied sequence and how many results were resent before it. */
    void welcome(final ClientSession session, final int source, final long lastApplied, final long resent) {
        out.clear();
        final int length = ClusterMessages.welcome(view(ClusterMessages.WELCOME_LENGTH), 0, source, lastApplied, resent);
        offer(session, length);
    }

    /** Answers given up on (back pressure past the retry time, or the bridge gone): the bridge asks for them again. */
    long dropped() {
        return dropped;
    }

    private UnsafeBuffer view(final int length) {
        out.ensureCapacity(length);
        view.wrap(out.addressForRead(0), length);
        return view;
    }

    private void offer(final ClientSession session, final int length) {
        final long start = System.nanoTime();
        while (true) {
            final long position = session.offer(view, 0, length);
            if (position > 0 || position == ClientSession.MOCKED_OFFER) {
                return;
            }
            if (position == Publication.NOT_CONNECTED || position == Publication.CLOSED || position == Publication.MAX_POSITION_EXCEEDED
                || System.nanoTime() - start > retryNanos || cluster == null) {
                // The bridge sees the gap in its results and asks again (HELLO); nothing is lost, only delayed.
                dropped++;
                return;
            }
            cluster.idleStrategy().idle(); // the service agent's: it keeps the service's own duties going meanwhile
        }
    }
}
