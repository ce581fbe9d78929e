package io.chronex.replay.audit;

import io.chronex.api.Cancel;
import io.chronex.api.Command;
import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireOut;
import net.openhft.chronicle.wire.WireType;

import java.io.PrintStream;

/**
 * bin/audit dump: a range of either queue, every excerpt decoded and printed through Chronicle Wire
 * as YAML documents or JSON objects, field by field (the binary layouts are in docs/messages.md).
 */
final class Dump {
    private final boolean json;
    private final PrintStream out;
    private final Bytes<?> buffer = Bytes.allocateElasticOnHeap(1024);

    Dump(final boolean json, final PrintStream out) {
        this.json = json;
        this.out = out;
    }

    /** Prints up to {@code count} excerpts of the commands queue (or the events queue) from journal index {@code from} (-1: the start). */
    long run(final DataDirectory data, final boolean events, final long from, final long count) {
        long n = 0;
        try (SingleChronicleQueue queue = events ? data.events() : data.commands()) {
            final ExcerptTailer tailer = queue.createTailer();
            if (from >= 0 && !tailer.moveToIndex(from)) {
                throw new io.chronex.runtime.Args.UsageException("no excerpt at index 0x" + Long.toHexString(from) + " in " + data.shownAs()
                    .resolve(events ? "events" : "commands"));
            }
            final Command command = new Command();
            final CommandText text = new CommandText();
            final EventHeader header = new EventHeader();
            final Result result = new Result();
            while (n < count) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    n++;
                    buffer.clear();
                    final Wire wire = (json ? WireType.JSON_ONLY : WireType.YAML_ONLY).apply(buffer);
                    wire.write("index").text("0x" + Long.toHexString(dc.index()));
                    if (events) {
                        final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
                        wire.write("decoded").text(status.name());
                        if (status == DecodeStatus.OK) {
                            wire.write("commandIndex").text("0x" + Long.toHexString(header.commandIndex));
                            hops(wire, header.hops);
                            result(wire, result);
                        }
                    } else {
                        final Hops hops = new Hops();
                        final net.openhft.chronicle.bytes.Bytes<?> in = dc.wire().bytes();
                        final long at = in.readPosition();
                        final DecodeStatus status = CommandCodec.read(in, command, hops, text);
                        if (status != DecodeStatus.OK && ConfigRecord.is(in, at, in.readLimit() - at)) {
                            configuration(wire, in, at, in.readLimit() - at);
                        } else {
                            wire.write("decoded").text(status.name());
                        }
                        if (status == DecodeStatus.OK) {
                            command(wire, command, text);
                            hops(wire, hops);
                        }
                    }
                    final String doc = buffer.toString().trim();
                    out.println(json ? doc : "--- # " + (events ? "event" : "command") + "\n" + doc);
                }
            }
        }
        return n;
    }

    /** A configuration record: its kind, when it was recorded and the configuration's text (bin/audit config judges them). */
    private static void configuration(final WireOut w, final net.openhft.chronicle.bytes.Bytes<?> in, final long at, final long length) {
        try {
            final ConfigRecord.Decoded record = ConfigRecord.read(in, at, length);
            w.write("decoded").text("CONFIGURATION_RECORD");
            w.write("kind").text(record.kind().name());
            w.write("recorded").text(java.time.Instant.ofEpochSecond(0, record.epochNanos()).toString());
            w.write("configuration").text(new String(record.text(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (final IllegalArgumentException e) {
            w.write("decoded").text("BAD_CONFIGURATION_RECORD");
            w.write("reason").text(e.getMessage());
        }
    }

    private static void command(final WireOut w, final Command c, final CommandText text) {
        w.write("type").text(c.type.name());
        w.write("account").int64(c.account);
        w.write("symbol").int32(c.symbol);
        w.write("clientOrderId").int64(c.clientOrderId);
        if (!text.isEmpty()) {
            w.write("clientOrderIdText").text(text.clientOrderIdText());
            w.write("newClientOrderIdText").text(text.newClientOrderIdText());
        }
        w.write("orderId").int64(c.orderId);
        w.write("newClientOrderId").int64(c.newClientOrderId);
        w.write("side").text(String.valueOf(c.side));
        w.write("orderType").text(String.valueOf(c.orderType));
        w.write("timeInForce").text(String.valueOf(c.timeInForce));
        w.write("postOnly").bool(c.postOnly);
        w.write("price").int64(c.price);
        w.write("quantity").int64(c.quantity);
    }

    private static void hops(final WireOut w, final Hops h) {
        w.write("hops").marshallable(m -> m.write("gatewayId").int32(h.gatewayId).write("sessionId").int64(h.sessionId)
            .write("clientSeqNum").int32(h.clientSeqNum).write("receiptEpochNanos").int64(h.receiptEpochNanos)
            .write("gatewayReadNanos").int64(h.gatewayReadNanos).write("gatewayAppendNanos").int64(h.gatewayAppendNanos)
            .write("engineReadNanos").int64(h.engineReadNanos).write("engineDoneNanos").int64(h.engineDoneNanos)
            .write("engineAppendNanos").int64(h.engineAppendNanos));
    }

    private static void result(final WireOut w, final Result r) {
        w.write("result").marshallable(m -> {
            m.write("commandType").text(String.valueOf(r.commandType));
            m.write("rejectReason").text(String.valueOf(r.rejectReason));
            m.write("orderId").int64(r.orderId).write("account").int64(r.account).write("clientOrderId").int64(r.clientOrderId);
            m.write("symbol").int32(r.symbol).write("side").text(String.valueOf(r.side)).write("price").int64(r.price);
            m.write("quantity").int64(r.quantity).write("leaves").int64(r.leavesQuantity).write("cumulative").int64(r.cumulativeQuantity);
            m.write("affectedOrders").int32(r.affectedOrders);
            m.write("fills").sequence(r, (res, s) -> {
                for (int i = 0; i < res.fillCount(); i++) {
                    final Fill f = res.fill(i);
                    s.marshallable(x -> x.write("tradeId").int64(f.tradeId).write("price").int64(f.price)
                        .write("quantity").int64(f.quantity)
                        .write("takerOrderId").int64(f.takerOrderId).write("takerAccount").int64(f.takerAccount)
                        .write("makerOrderId").int64(f.makerOrderId).write("makerAccount").int64(f.makerAccount));
                }
            });
            m.write("cancels").sequence(r, (res, s) -> {
                for (int i = 0; i < res.cancelCount(); i++) {
                    final Cancel c = res.cancel(i);
                    s.marshallable(x -> x.write("orderId").int64(c.orderId).write("account").int64(c.account)
                        .write("quantity").int64(c.quantity).write("reason").text(String.valueOf(c.reason)));
                }
            });
            m.write("levels").sequence(r, (res, s) -> {
                for (int i = 0; i < res.levelChangeCount(); i++) {
                    final LevelChange l = res.levelChange(i);
                    s.marshallable(x -> x.write("symbol").int32(l.symbol).write("side").text(String.valueOf(l.side))
                        .write("price").int64(l.price).write("quantity").int64(l.quantity).write("orders").int32(l.orderCount));
                }
            });
        });
    }
}
