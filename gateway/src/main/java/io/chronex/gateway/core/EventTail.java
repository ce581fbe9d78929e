package io.chronex.gateway.core;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.FailedEventsFile;
import io.chronex.queues.Hops;
import io.chronex.queues.QueueGap;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.util.function.Consumer;

/**
 * A gateway's reading of the events queue, whatever protocol it answers in: the next engine result decoded, the request
 * it answers read back from the journal when the answer needs it (a cancel's or replace's ids, an inquiry's id), and
 * what cannot be answered recorded (the log, a count, gateways/N/failed-events for a monitor) and passed over, so one
 * bad event never stops the others. Also notices, while nothing arrives, a stretch of the queue the tailer cannot read.
 */
public final class EventTail {
    /** What {@link #next} found. */
    public enum Read {
        /** Nothing new. */
        NONE,
        /** An event, in {@link #header} and {@link #result}. */
        EVENT,
        /** An excerpt that cannot be decoded: recorded as failed; its index is {@link #lastRead}. */
        UNREADABLE
    }

    /** How long without an event before the queue is asked whether it goes on past where the tailer stopped. */
    private static final long STALL_CHECK_NANOS = 5_000_000_000L;

    private final ExcerptTailer events;
    private final ExcerptTailer commandReader;
    private final FailedEventsFile failedEvents;
    private final Consumer<String> log;
    public final EventHeader header = new EventHeader();
    public final Result result = new Result();
    private final Command request = new Command();
    private final Hops requestHops = new Hops();
    private DecodeStatus lastStatus;

    public long eventsRead;
    public long eventsFailed;
    public long lastFailedEvent = -1;
    /** When the last event was read ({@link System#nanoTime}). */
    public long readNanos;
    private long lastRead = -1;
    private long nextStallCheckNanos;
    private long eventsReadAtStallCheck = -1;
    private QueueGap reportedGap;

    public EventTail(final ExcerptTailer events, final ExcerptTailer commandReader, final FailedEventsFile failedEvents,
                     final Consumer<String> log) {
        this.events = events;
        this.commandReader = commandReader;
        this.failedEvents = failedEvents;
        this.log = log;
    }

    /** Reads the next event, if there is one. */
    public Read next() {
        try (DocumentContext dc = events.readingDocument()) {
            if (!dc.isPresent()) {
                return Read.NONE;
            }
            eventsRead++;
            readNanos = System.nanoTime();
            lastRead = dc.index();
            lastStatus = EventCodec.read(dc.wire().bytes(), header, result);
        }
        if (lastStatus != DecodeStatus.OK) {
            failed(lastRead, "it cannot be read (" + lastStatus + ")");
            return Read.UNREADABLE;
        }
        return Read.EVENT;
    }

    /** The last events excerpt read, -1 before the first. */
    public long lastRead() {
        return lastRead;
    }

    /** The command at this journal index, its ids' texts into text; null when it cannot be read back. */
    public Command request(final long commandIndex, final CommandText text) {
        if (!commandReader.moveToIndex(commandIndex)) {
            return null;
        }
        try (DocumentContext dc = commandReader.readingDocument()) {
            if (!dc.isPresent() || CommandCodec.read(dc.wire().bytes(), request, requestHops, text) != DecodeStatus.OK) {
                return null;
            }
            return request;
        }
    }

    /**
     * An event this gateway cannot answer (in full): said in the log, counted, and recorded in gateways/N/failed-events for a
     * monitor, then passed over; everything else goes on.
     */
    public void failed(final long index, final String why) {
        eventsFailed++;
        lastFailedEvent = index;
        final boolean first = failedEvents.record(index, System.currentTimeMillis(), why);
        log.accept("events excerpt " + Long.toHexString(index) + " could not be answered: " + why + "; passed over, the gateway goes"
            + " on (" + failedEvents.count() + " failed events recorded in failed-events" + (first ? "" : ", this one already before a"
            + " restart") + ")");
    }

    /**
     * While no event has been read for {@value #STALL_CHECK_NANOS} ns, whether the events queue goes on past a stretch the
     * tailer cannot read (bytes zeroed in the file): delivery would stop there for every session without a word. Said
     * in the log once per stretch, with the indices; nothing else can be done while running (a restart refuses).
     */
    public void checkForStall(final long nowNanos) {
        if (nowNanos - nextStallCheckNanos < 0) {
            return;
        }
        nextStallCheckNanos = nowNanos + STALL_CHECK_NANOS;
        if (eventsRead != eventsReadAtStallCheck || lastRead < 0) {
            eventsReadAtStallCheck = eventsRead;
            return;
        }
        final QueueGap gap = QueueGap.after(events.queue(), lastRead);
        if (gap != null && !gap.equals(reportedGap)) {
            log.accept("error: the gateway cannot read the events queue past index " + Long.toHexString(lastRead) + ": "
                + gap.describe() + ". No report after it can be delivered; stop the gateway and restore the events queue from a"
                + " copy taken with the engine stopped");
        }
        reportedGap = gap;
    }
}
