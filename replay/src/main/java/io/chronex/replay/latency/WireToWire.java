package io.chronex.replay.latency;

import io.chronex.api.CommandType;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventTail;
import io.chronex.queues.Hops;
import io.chronex.queues.ReturnHops;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every result's hop times, wire to wire: the hops the events carry (gateway read, gateway append,
 * engine read, engine done, engine append) joined with the return hops its gateway recorded (event read,
 * socket write; {@link ReturnHops}). Each gateway's return records are in events order, so they are
 * merged with the events as both are read, with no table of either in memory.
 */
public final class WireToWire {
    /** The hops, in the order a command travels them; the last two end-to-end spans are sums of hops. */
    public enum Hop {
        GATEWAY("gateway", "gateway socket read -> gateway append"),
        JOURNAL("journal", "gateway append -> engine read (the commands queue, with any queueing)"),
        MATCH("match", "engine read -> engine done"),
        EVENTS("events", "engine done -> engine append"),
        RETURN("return", "engine append -> gateway event read (the events queue)"),
        WRITE("write", "gateway event read -> socket write"),
        TOTAL("total", "gateway append -> engine append (inside the exchange's queues)"),
        WIRE("wire", "gateway socket read -> socket write (wire to wire)");

        public final String label;
        public final String meaning;

        Hop(final String label, final String meaning) {
            this.label = label;
            this.meaning = meaning;
        }

        /** The hops that add up to the wire-to-wire time, in order. */
        public static final Hop[] PARTS = {GATEWAY, JOURNAL, MATCH, EVENTS, RETURN, WRITE};
    }

    /** Told about each result; {@code nanos[hop.ordinal()]} is -1 where a hop was not recorded. Reused after it returns. */
    @FunctionalInterface
    public interface Visitor {
        void result(long eventsIndex, CommandType type, long receiptEpochNanos, long engineAppendNanos, long[] nanos);
    }

    /** What a pass found, besides the results handed over. */
    public record Counts(long results, long withReturn, long unreadableEvents, long unreadableReturns) {
    }

    private WireToWire() {
    }

    /** Reads every result of the data directory's events queue, joined with its gateways' return records. */
    public static Counts read(final DataDirectory data, final Visitor visitor) {
        final int[] gatewayIds = data.gatewaysWithReturns();
        final List<SingleChronicleQueue> open = new ArrayList<>();
        final ReturnHops.Cursor[] cursors = new ReturnHops.Cursor[gatewayIds.length == 0 ? 1 : gatewayIds[gatewayIds.length - 1] + 1];
        final boolean[] ended = new boolean[cursors.length];
        final boolean[] started = new boolean[cursors.length];
        try (SingleChronicleQueue events = data.events()) {
            for (final int id : gatewayIds) {
                final SingleChronicleQueue q = data.gatewayReturns(id);
                open.add(q);
                cursors[id] = new ReturnHops.Cursor(q.createTailer());
            }
            final long[] nanos = new long[Hop.values().length];
            final long[] counts = new long[2];
            final EventTail tail = new EventTail(events.createTailer());
            final EventTail.Handler handler = (index, header, result) -> {
                if (result.commandType == CommandType.CONFIGURATION) {
                    return; // the answer to a configuration record: not traffic, and its reading of a whole configuration is no hop
                }
                final Hops h = header.hops;
                Arrays.fill(nanos, -1);
                span(nanos, Hop.GATEWAY, h.gatewayReadNanos, h.gatewayAppendNanos);
                span(nanos, Hop.JOURNAL, h.gatewayAppendNanos, h.engineReadNanos);
                span(nanos, Hop.MATCH, h.engineReadNanos, h.engineDoneNanos);
                span(nanos, Hop.EVENTS, h.engineDoneNanos, h.engineAppendNanos);
                span(nanos, Hop.TOTAL, h.gatewayAppendNanos, h.engineAppendNanos);
                final int g = h.gatewayId;
                final ReturnHops.Cursor c = g > 0 && g < cursors.length ? cursors[g] : null;
                if (c != null && !ended[g]) {
                    // Skip the gateway's records for earlier events (answers to results this pass does not see never come).
                    while (!started[g] || c.eventsIndex < index) {
                        started[g] = true;
                        if (!c.advance()) {
                            ended[g] = true;
                            break;
                        }
                    }
                    if (!ended[g] && c.eventsIndex == index) {
                        span(nanos, Hop.RETURN, h.engineAppendNanos, c.eventReadNanos);
                        span(nanos, Hop.WRITE, c.eventReadNanos, c.socketWriteNanos);
                        span(nanos, Hop.WIRE, h.gatewayReadNanos, c.socketWriteNanos);
                        counts[1]++;
                    }
                }
                counts[0]++;
                visitor.result(index, result.commandType, h.receiptEpochNanos, h.engineAppendNanos, nanos);
            };
            try (tail) {
                while (tail.poll(handler, Integer.MAX_VALUE) > 0) {
                    // until caught up with what is there
                }
            }
            long unreadableReturns = 0;
            for (final ReturnHops.Cursor c : cursors) {
                unreadableReturns += c == null ? 0 : c.unreadable();
            }
            return new Counts(counts[0], counts[1], tail.unreadable(), unreadableReturns);
        } finally {
            open.forEach(SingleChronicleQueue::close);
        }
    }

    /** A hop's time when both ends were recorded (0 means not); clamped at 0 against a hand-built excerpt. */
    private static void span(final long[] nanos, final Hop hop, final long from, final long to) {
        if (from != 0 && to != 0) {
            nanos[hop.ordinal()] = Math.max(0, to - from);
        }
    }
}
