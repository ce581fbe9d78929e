package io.chronex.engine.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.logbuffer.Header;
import io.chronex.api.Cancel;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.OrderStatus;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.cluster.ClusterMessages;
import net.openhft.chronicle.bytes.Bytes;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A benchmark floor, not an exchange ({@code bin/cluster-node --service echo}): speaks the cluster messages the engine's
 * service speaks, through the same member, bridge and gateway, but matches nothing and writes no queue on the member, so a
 * round trip through it is what the cluster path costs without our service. Each COMMAND is answered with a RESULT that
 * accepts it as it stands (a new order rests with an order id counted here, a replace is taken, a cancel cancels what it names,
 * anything else is accepted with nothing done), naming the host's journal index, so the bridge, the gateway and the FIX
 * client treat it like any result. The last sequence per gateway host is kept in memory (the log's replay rebuilds it; no
 * snapshot holds it) to answer HELLO with WELCOME, and a command at or below it is not answered again. It does not resend
 * the results a bridge missed (the engine's service reads them back from its journal); instead an answer to a back-pressured
 * bridge waits until the bridge takes it (the engine's gives up after 100 ms and resends on the bridge's HELLO), so only a
 * bridge that goes away loses answers, and one that comes back after that is welcomed without them and stalls. Good for a
 * benchmark, not for anything else.
 */
public final class EchoClusteredService implements MemberService {
    private final Consumer<String> log;
    private final Long2LongHashMap lastApplied = new Long2LongHashMap(-1);
    /** An answer waits for a back-pressured bridge as long as the bridge is there (nothing resends it), as Aeron's echo sample does. */
    private final Egress egress = new Egress(Long.MAX_VALUE);
    private final Command command = new Command();
    private final Result result = new Result();
    private final EventHeader header = new EventHeader();
    private final Bytes<?> in = Bytes.allocateElasticDirect(512);
    private final AtomicLong applied = new AtomicLong();
    private volatile Cluster.Role role = Cluster.Role.FOLLOWER;
    private long nextOrderId = 1;

    public EchoClusteredService(final Consumer<String> log) {
        this.log = log;
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        egress.start(cluster);
        log.accept("echo service: a benchmark floor, not an exchange (no matching, no queues on this member)");
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer, final int offset,
                                 final int length, final Header logHeader) {
        final byte type = ClusterMessages.type(buffer, offset, length);
        final int source = ClusterMessages.source(buffer, offset);
        final long sequence = ClusterMessages.sequence(buffer, offset);
        if (type == ClusterMessages.HELLO) {
            egress.welcome(session, source, lastApplied.get(source), 0);
            return;
        }
        if (type != ClusterMessages.COMMAND || sequence <= lastApplied.get(source)) {
            return;
        }
        lastApplied.put(source, sequence);
        header.hops.clear();
        header.hops.engineReadNanos = System.nanoTime();
        in.clear();
        in.ensureCapacity(length);
        for (int i = ClusterMessages.HEADER_LENGTH; i < length; i++) {
            in.writeByte(buffer.getByte(offset + i));
        }
        if (CommandCodec.read(in, command, header.hops) == DecodeStatus.OK) {
            accept(command, result, nextOrderId++);
        } else {
            result.rejectMalformed();
        }
        header.checkpoint = false;
        header.stateHash = 0;
        header.hops.engineDoneNanos = System.nanoTime();
        header.hops.engineAppendNanos = header.hops.engineDoneNanos;
        egress.result(session, source, sequence, header, result);
        applied.setRelease(applied.getPlain() + 1);
    }

    /** The result that accepts {@code c} as it stands; {@code orderId} for a new order. */
    static void accept(final Command c, final Result r, final long orderId) {
        r.reset(c.type);
        r.account = c.account;
        r.symbol = c.symbol;
        r.clientOrderId = c.clientOrderId;
        r.side = c.side;
        r.orderType = c.orderType;
        r.timeInForce = c.timeInForce;
        r.price = c.price;
        r.quantity = c.quantity;
        switch (c.type) {
            case NEW_ORDER -> {
                r.orderId = orderId;
                r.leavesQuantity = c.quantity;
                r.orderStatus = OrderStatus.NEW;
            }
            case REPLACE -> {
                r.orderId = c.orderId;
                r.clientOrderId = c.newClientOrderId != 0 ? c.newClientOrderId : c.clientOrderId;
                r.leavesQuantity = c.quantity;
                r.orderStatus = OrderStatus.NEW;
            }
            case CANCEL -> {
                r.orderId = c.orderId;
                r.quantity = 0;
                r.orderStatus = OrderStatus.CANCELLED;
                if (c.side == null) {
                    return; // not from FIX (which names the side); a cancel entry must have one: taken, nothing cancelled
                }
                final Cancel x = r.addCancel();
                x.orderId = c.orderId;
                x.account = c.account;
                x.clientOrderId = c.clientOrderId;
                x.symbol = c.symbol;
                x.side = c.side;
                x.price = 0;
                x.quantity = 0;
                x.leavesQuantity = 0;
                x.cumulativeQuantity = 0;
                x.reason = CancelReason.CLIENT_CANCEL;
            }
            default -> r.orderId = c.orderId;
        }
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        // Nothing: the last sequences are rebuilt by replaying the log, which a benchmark's cluster keeps whole.
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        role = newRole;
        log.accept("role: " + newRole);
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        log.accept("echo service terminating: " + applied.getPlain() + " commands answered by this run, " + egress.dropped()
            + " answers left for bridges to ask again");
    }

    @Override
    public long applied() {
        return applied.getAcquire();
    }

    @Override
    public Cluster.Role role() {
        return role;
    }
}
