package io.chronex.monitor;

import io.chronex.api.CommandType;
import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandTail;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.Hops;
import io.chronex.queues.book.Books;

import java.util.Arrays;

/**
 * What the monitor knows, built only from the two queues' excerpts: hop latencies, counters, books,
 * backlog and throughput. Fed by {@link CommandTail} and {@link EventTail} (or by tests, directly);
 * one thread feeds it. Audit tools can reuse it as it is: nothing here touches a queue or a clock.
 */
public final class MonitorModel implements CommandTail.Handler, EventTail.Handler {
    private final HopLatencies latencies;
    private final Counters counters = new Counters();
    private final OperatorCommands operator = new OperatorCommands();
    private final Books books = new Books();
    private final Backlog backlog = new Backlog();
    private long commands;
    private long events;
    private long intervalCommands;
    private long intervalEvents;
    private long lastIntervalCommands;
    private long lastIntervalEvents;
    /** Per gateway id (1..999; 0 = not from a gateway), commands appended, of all time and in the last interval. */
    private final long[] commandsByGateway = new long[1000];
    private final long[] intervalByGateway = new long[1000];
    private final long[] lastIntervalByGateway = new long[1000];
    /**
     * The last RECENT events' index, engine append and gateway read times, by the index's low bits: a gateway's return
     * record (which comes a little after its event) is joined to its event here; an older one is counted, not joined.
     */
    private static final int RECENT = 1 << 16;
    private final long[] recentIndex = new long[RECENT];
    private final long[] recentAppend = new long[RECENT];
    private final long[] recentRead = new long[RECENT];
    private long returnsUnjoined;
    /**
     * The last commands and events index that was in the queues when the monitor started (-1: none): what it reads up to
     * there is history, counted in the totals, books and since-start latencies but not in the interval's rates or the last
     * minute, so the catch-up of a restarted monitor does not show as a spike of current traffic.
     */
    private long historyCommandsThrough = -1;
    private long historyEventsThrough = -1;
    /** The books start from a snapshot at this journal index (days before it archived): earlier level changes are in it. */
    private long booksFrom = -1;

    /** With a last-minute window of 60 intervals (a minute at 1 s intervals). */
    public MonitorModel() {
        this(60);
    }

    /** With a last-minute window of {@code windowIntervals} intervals: {@link HopLatencies#windowIntervals(long)}. */
    public MonitorModel(final int windowIntervals) {
        this.latencies = new HopLatencies(windowIntervals);
    }

    /** The queues' last indexes when the monitor started (-1: empty or not there): see {@link #historyCommandsThrough}. */
    public void historyThrough(final long commandsIndex, final long eventsIndex) {
        historyCommandsThrough = commandsIndex;
        historyEventsThrough = eventsIndex;
    }

    @Override
    public void onCommand(final long journalIndex, final DecodeStatus status, final Command command, final Hops hops) {
        final boolean history = journalIndex <= historyCommandsThrough;
        commands++;
        // The routing and append time are readable whenever the fixed part was complete (CommandCodec.read).
        final int gateway = hops.gatewayId >= 0 && hops.gatewayId < commandsByGateway.length ? hops.gatewayId : 0;
        commandsByGateway[gateway]++;
        if (!history) {
            intervalCommands++;
            intervalByGateway[gateway]++;
        }
        backlog.onCommand(journalIndex, hops.gatewayAppendNanos, hops.receiptEpochNanos);
        if (status == DecodeStatus.OK) {
            operator.onCommand(journalIndex, command);
        }
    }

    @Override
    public void onEvent(final long eventsIndex, final EventHeader header, final Result result) {
        if (result.commandType == CommandType.CONFIGURATION) {
            return; // the answer to a configuration record: not traffic (its record was not counted as a command either)
        }
        final boolean history = eventsIndex <= historyEventsThrough;
        events++;
        if (!history) {
            intervalEvents++;
        }
        latencies.history(history);
        latencies.record(header.hops);
        latencies.history(false);
        final int slot = (int) (eventsIndex & (RECENT - 1));
        recentIndex[slot] = eventsIndex;
        recentAppend[slot] = header.hops.engineAppendNanos;
        recentRead[slot] = header.hops.gatewayReadNanos;
        counters.onResult(eventsIndex, result);
        operator.onResult(header.commandIndex, result);
        if (header.commandIndex > booksFrom) {
            for (int i = 0; i < result.levelChangeCount(); i++) {
                books.apply(result.levelChange(i));
            }
        }
        backlog.onAnswered(header.commandIndex);
    }

    /**
     * A gateway's return record for the result at eventsIndex: when it read the event and when the answer went out
     * (gateways/N/returns). Joined to the event read shortly before; one too old to be remembered is only counted.
     */
    public void onReturn(final long eventsIndex, final long eventReadNanos, final long socketWriteNanos) {
        final int slot = (int) (eventsIndex & (RECENT - 1));
        if (recentIndex[slot] != eventsIndex || recentAppend[slot] == 0) {
            returnsUnjoined++;
            return;
        }
        latencies.history(eventsIndex <= historyEventsThrough);
        latencies.recordReturn(recentAppend[slot], recentRead[slot], eventReadNanos, socketWriteNanos);
        latencies.history(false);
        recentIndex[slot] = -1; // one record per result (older gateways wrote one per answer: the first is the one that counts)
    }

    /** Return records not joined: their event was not among the last 65,536 read, or already had its record. */
    public long returnsUnjoined() {
        return returnsUnjoined;
    }

    /** Ends an interval: latencies' interval histograms and the interval counts become the last interval's. */
    public void rollInterval() {
        endInterval();
        while (latencies.accumulateNext()) {
            // every hop's since-start and last-minute sums
        }
    }

    /**
     * {@link #rollInterval} but for the latencies' sums, which the caller adds with {@link HopLatencies#accumulateNext}
     * one hop at a time before it shows them.
     */
    public void endInterval() {
        latencies.endInterval();
        lastIntervalCommands = intervalCommands;
        lastIntervalEvents = intervalEvents;
        intervalCommands = 0;
        intervalEvents = 0;
        System.arraycopy(intervalByGateway, 0, lastIntervalByGateway, 0, intervalByGateway.length);
        Arrays.fill(intervalByGateway, 0);
    }

    public HopLatencies latencies() {
        return latencies;
    }

    public Counters counters() {
        return counters;
    }

    /** Operator commands (bin/admin's types): counts and the last few with their answers. */
    public OperatorCommands operator() {
        return operator;
    }

    /**
     * The books as the engine's snapshot at journalIndex holds them, for a data directory whose first days are archived:
     * the events left begin part way, so the books are taken from the snapshot and only later level changes applied.
     */
    public void booksFrom(final long journalIndex, final Books seeded) {
        booksFrom = journalIndex;
        books.copyFrom(seeded);
    }

    public Books books() {
        return books;
    }

    public Backlog backlog() {
        return backlog;
    }

    /** Commands read from the journal, of all time. */
    public long commands() {
        return commands;
    }

    /** Events read, of all time. */
    public long events() {
        return events;
    }

    /** Commands read in the last completed interval. */
    public long lastIntervalCommands() {
        return lastIntervalCommands;
    }

    /** Events read in the last completed interval. */
    public long lastIntervalEvents() {
        return lastIntervalEvents;
    }

    /** Commands a gateway appended, of all time. */
    public long commandsFromGateway(final int gatewayId) {
        return gatewayId >= 0 && gatewayId < commandsByGateway.length ? commandsByGateway[gatewayId] : 0;
    }

    /** Commands a gateway appended in the last completed interval. */
    public long lastIntervalCommandsFromGateway(final int gatewayId) {
        return gatewayId >= 0 && gatewayId < lastIntervalByGateway.length ? lastIntervalByGateway[gatewayId] : 0;
    }
}
