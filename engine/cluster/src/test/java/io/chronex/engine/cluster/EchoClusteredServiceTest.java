package io.chronex.engine.cluster;

import io.aeron.logbuffer.Header;
import io.chronex.api.CancelReason;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderStatus;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import io.chronex.queues.cluster.ClusterMessages;
import net.openhft.chronicle.bytes.Bytes;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The echo service alone, without Aeron: what it answers a COMMAND and a HELLO, on a session that records its egress. */
class EchoClusteredServiceTest {
    private static final int SOURCE = 3;

    private final List<String> log = new ArrayList<>();
    private final EchoClusteredService service = new EchoClusteredService(log::add);
    private final RecordingSession session = new RecordingSession();
    private final Header logHeader = new Header(0, 16);

    @Test
    void aCommandIsAnsweredWithAResultAcceptingItUnderTheHostsIndex() {
        service.onStart(null, null);
        final Hops hops = new Hops();
        hops.gatewayId = 2;
        hops.sessionId = 77;
        hops.gatewayReadNanos = 123;
        send(ClusterMessages.COMMAND, 0x5_0000_0007L, new Command().limit(101, 1, 9001, Side.BUY, 10_050, 4), hops);

        assertEquals(1, session.sent.size());
        final byte[] answer = session.sent.get(0);
        final UnsafeBuffer buffer = new UnsafeBuffer(answer);
        assertEquals(ClusterMessages.RESULT, ClusterMessages.type(buffer, 0, answer.length));
        assertEquals(SOURCE, ClusterMessages.source(buffer, 0));
        assertEquals(0x5_0000_0007L, ClusterMessages.sequence(buffer, 0));
        final EventHeader header = new EventHeader();
        final Result result = decode(answer, header);
        assertEquals(0x5_0000_0007L, header.commandIndex, "the result names the host's journal index");
        assertEquals(2, header.hops.gatewayId, "routed back to the gateway and session that sent it");
        assertEquals(77, header.hops.sessionId);
        assertEquals(123, header.hops.gatewayReadNanos);
        assertEquals(CommandType.NEW_ORDER, result.commandType);
        assertFalse(result.isRejected());
        assertEquals(OrderStatus.NEW, result.orderStatus);
        assertEquals(9001, result.clientOrderId);
        assertEquals(101, result.account);
        assertEquals(4, result.quantity);
        assertEquals(4, result.leavesQuantity);
        assertEquals(10_050, result.price);
        assertEquals(1, service.applied());
    }

    @Test
    void aCancelIsAnsweredWithTheCancelOfWhatItNames() {
        service.onStart(null, null);
        final Command cancel = new Command().cancel(101, 9001);
        cancel.symbol = 1;
        cancel.side = Side.BUY; // as the gateway journals a FIX OrderCancelRequest
        send(ClusterMessages.COMMAND, 4, cancel, new Hops());
        final Result result = decode(session.sent.get(0), new EventHeader());
        assertEquals(CommandType.CANCEL, result.commandType);
        assertEquals(OrderStatus.CANCELLED, result.orderStatus);
        assertEquals(1, result.cancelCount());
        assertEquals(9001, result.cancel(0).clientOrderId);
        assertEquals(101, result.cancel(0).account);
        assertEquals(Side.BUY, result.cancel(0).side);
        assertEquals(0, result.cancel(0).leavesQuantity);
        assertEquals(CancelReason.CLIENT_CANCEL, result.cancel(0).reason);
    }

    @Test
    void aHelloIsWelcomedWithTheLastSequenceAndAResendIsNotAnsweredAgain() {
        service.onStart(null, null);
        send(ClusterMessages.HELLO, -1, null, null);
        assertWelcome(session.sent.get(0), -1);

        send(ClusterMessages.COMMAND, 10, new Command().limit(101, 1, 1, Side.SELL, 100, 1), new Hops());
        send(ClusterMessages.COMMAND, 11, new Command().limit(101, 1, 2, Side.SELL, 100, 1), new Hops());
        send(ClusterMessages.COMMAND, 11, new Command().limit(101, 1, 2, Side.SELL, 100, 1), new Hops());
        assertEquals(3, session.sent.size(), "the second 11 is a resend: not answered");
        send(ClusterMessages.HELLO, 10, null, null);
        assertWelcome(session.sent.get(3), 11);
        assertEquals(2, service.applied());
    }

    private static void assertWelcome(final byte[] message, final long lastApplied) {
        final UnsafeBuffer buffer = new UnsafeBuffer(message);
        assertEquals(ClusterMessages.WELCOME, ClusterMessages.type(buffer, 0, message.length));
        assertEquals(ClusterMessages.WELCOME_LENGTH, message.length);
        assertEquals(SOURCE, ClusterMessages.source(buffer, 0));
        assertEquals(lastApplied, ClusterMessages.sequence(buffer, 0));
        assertEquals(0, ClusterMessages.resent(buffer, 0));
    }

    private void send(final byte type, final long sequence, final Command command, final Hops hops) {
        final Bytes<?> excerpt = Bytes.allocateElasticDirect(256);
        if (command != null) {
            CommandCodec.write(excerpt, command, hops);
        }
        final int length = ClusterMessages.HEADER_LENGTH + (int) excerpt.writePosition();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[length + 8]);
        ClusterMessages.header(message, 8, type, SOURCE, sequence);
        for (int i = 0; i < excerpt.writePosition(); i++) {
            message.putByte(8 + ClusterMessages.HEADER_LENGTH + i, excerpt.readByte(i));
        }
        excerpt.releaseLast();
        service.onSessionMessage(session, 0, message, 8, length, logHeader);
    }

    private static Result decode(final byte[] answer, final EventHeader header) {
        final Bytes<?> in = Bytes.allocateElasticDirect(answer.length);
        in.write(answer, ClusterMessages.HEADER_LENGTH, answer.length - ClusterMessages.HEADER_LENGTH);
        final Result result = new Result();
        assertEquals(DecodeStatus.OK, EventCodec.read(in, header, result));
        in.releaseLast();
        return result;
    }

}
