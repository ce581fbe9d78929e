package io.chronex.marketdata.publisher;

import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.api.SymbolSpec;
import io.chronex.marketdata.FeedConfig;
import io.chronex.marketdata.FeedEncoder;
import io.chronex.marketdata.InvokedAeron;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import io.chronex.queues.MarketDataStatusFile;
import io.chronex.queues.ReaderCheckpoint;
import io.chronex.queues.book.Books;
import io.chronex.runtime.AeronLeftovers;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.CloseHelper;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The market-data publisher's loop: tails the events queue read-only, keeps every symbol's book, sends one incremental
 * per market-data-bearing excerpt on the incremental channel, a heartbeat when that channel is idle, and every symbol's
 * snapshot on the snapshot channel once per cycle (docs/marketdata.md).
 *
 * <p>The incremental sequence is a function of the queue: seq N is the N-th excerpt that {@link
 * FeedEncoder#carriesMarketData carries market data}. So a publisher that starts (or restarts after kill -9) rebuilds the
 * books and the sequence, from its checkpoint ({@link PublisherCheckpoint}: the state as of an events index, written at
 * start, at the first excerpt of each day and at a clean stop) or else from the queue's beginning, then sends again from
 * {@value #REPUBLISH} incrementals before the last one its predecessor handed to Aeron (the status file keeps it; the last
 * few may have died with the predecessor's media driver; clients ignore what they have) and carries on through the queue.
 *
 * <p>The media driver and the Aeron client's conductor run on this agent's thread (Aeron's invoker mode): each turn reads
 * the events, offers their incrementals, then turns the driver until it has put them on the wire. So under a trickle the
 * publisher wakes one thread per pause, not three (docs/marketdata.md, "Idling").
 */
public final class PublisherAgent implements Agent {
    /** Incrementals sent again after a (re)start, before the predecessor's last: a client that missed only these needs no snapshot. */
    static final int REPUBLISH = 1024;
    private static final int EVENTS_PER_TURN = 256;
    private static final int OFFER_SPINS = 16;
    /**
     * At most this many driver turns after each of the loop's: Aeron's sender puts at most one datagram per publication on
     * the wire a turn, and a full turn of 256 incrementals fills a few dozen.
     */
    private static final int DRIVER_TURNS = 128;
    private static final long STATUS_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * After a (re)start, how long to wait for a first receiver before sending: clients that were listening to the killed
     * publisher find the new one within a status-message interval (about 200 ms), and the incrementals sent again at
     * start are for them; with nobody there after this, the publisher goes on without them.
     */
    private static final long CONNECT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final FeedConfig config;
    private final DataDirectory data;
    private final Consumer<String> log;
    private final List<SymbolSpec> symbols;
    private final Int2IntHashMap slotOfSymbol = new Int2IntHashMap(-1);
    private final boolean[] halted;
    private final Books books = new Books();
    /** The events indices of the last {@value #REPUBLISH} market-data excerpts in the books: number n (from 1) at (n - 1) % REPUBLISH. */
    private final long[] recentInBooks = new long[REPUBLISH];
    private final FeedEncoder incrementalEncoder = new FeedEncoder();
    private final FeedEncoder snapshotEncoder = new FeedEncoder();
    private final DutyCycle.StatusClock logClock = DutyCycle.StatusClock.everyMinute();
    private final EventTail.Handler onEvent = this::onEvent;

    private InvokedAeron aeron;
    private Publication incremental;
    private Publication snapshots;
    private StatusFile status;
    private SingleChronicleQueue events;
    private EventTail tail;
    private ExcerptTailer endTailer;

    /** The last sequence sent (or being sent, when {@link #pending}). */
    private long seq;
    /** The sequence and events index the books include. */
    private long bookSeq;
    private long bookEventsIndex = -1;
    /** Excerpts up to here are already in the books (read at start): re-sent, not applied again. */
    private long booksThrough = -1;
    private long lastIndexRead = -1;
    /** The excerpt whose incremental is encoded but back-pressured; sent before anything else is read. */
    private boolean pending;
    private int pendingLength;
    private long pendingSinceNanos;
    private long lastSendNanos;
    private long nextSnapshotNanos;
    private long nextStatusNanos;
    private long sendFromNanos;

    private long messages;
    private long snapshotsSent;
    private long backPressured;
    private long dropped;
    /** Incrementals sent without their groups, and snapshots cut to their best levels: too big for one message. */
    private long incrementalsLeftOut;
    private long snapshotsCut;
    /** Events excerpts that could not be read: their market data, if any, is missing from the books. */
    private long unreadable;
    /** The live tail's count of them when last looked at. */
    private long tailUnreadable;
    /** Writes the checkpoint on a thread of its own; null until the events queue is open. */
    private PublisherCheckpoint checkpoints;
    /** The roll cycle (day) of {@link #bookEventsIndex}: the first excerpt of the next one is checkpointed. */
    private int cycleInBooks = Integer.MIN_VALUE;
    private boolean checkpointDue;
    /** Where the next snapshot cycle starts: the symbol a cut cycle did not get to. */
    private int firstSnapshotSlot;
    private long snapshotCyclesCut;
    private long notConnected;
    private long lagMicros;

    /** A publisher over the data directory's events queue for the symbols of the engine configuration. */
    public PublisherAgent(final FeedConfig config, final DataDirectory data, final List<SymbolSpec> symbols, final Consumer<String> log) {
        this.config = config;
        this.data = data;
        this.log = log;
        this.symbols = List.copyOf(symbols);
        this.halted = new boolean[symbols.size()];
        for (int i = 0; i < symbols.size(); i++) {
            slotOfSymbol.put(symbols.get(i).id(), i);
            books.bookOrNew(symbols.get(i).id());
        }
    }

    @Override
    public void onStart() {
        final MediaDriver.Context context = InvokedAeron.driverContext(config.aeronDir().resolve("marketdata"))
            .publicationTermBufferLength(config.termLength())
            // As the bridge: not dirDeleteOnStart, which would skip Aeron's check for a live driver in the directory.
            .dirDeleteOnStart(false);
        aeron = InvokedAeron.connect(AeronLeftovers.launchDriver(context, "marketdata", log));
        incremental = aeron.aeron().addPublication(config.incrementalPublication(), config.incrementalStream());
        snapshots = aeron.aeron().addPublication(config.snapshotPublication(), config.snapshotStream());
        status = new StatusFile(data.root().resolve("marketdata").resolve("status"));
        incrementalEncoder.epoch(status.epoch());
        snapshotEncoder.epoch(status.epoch());
        log.accept("marketdata: incrementals on " + config.incrementalPublication() + " stream " + config.incrementalStream()
            + ", snapshots every " + config.snapshotIntervalNanos() / 1_000_000 + " ms on " + config.snapshotPublication() + " stream "
            + config.snapshotStream());
    }

    @Override
    public int doWork() {
        final int work = publish(System.nanoTime());
        return work + driverTurns();
    }

    /**
     * Turns the media driver until it has nothing left to do, so that what this turn offered is on the wire before the loop
     * idles, then the Aeron client's conductor once (after the driver, which refreshes the heartbeat the conductor checks);
     * returns {@value #EVENTS_PER_TURN} (a full turn: no pause) when the driver was still busy after {@value #DRIVER_TURNS}
     * turns, else 0.
     */
    private int driverTurns() {
        aeron.turnDriver(DRIVER_TURNS);
        aeron.turnClient();
        return aeron.driverBusy() ? EVENTS_PER_TURN : 0;
    }

    private int publish(final long now) {
        if (tail == null) {
            return open(now);
        }
        if (now < sendFromNanos && !incremental.isConnected()) {
            return snapshotCycle(now) + statusDue(now);
        }
        int work = 0;
        if (pending) {
            if (!resend(now)) {
                // Counted as a full turn, so that a paced idle retries at once: the wait is bounded by backPressureLimitMs,
                // not stretched by the pause (a pause as long as the limit would give up every back-pressured incremental).
                return EVENTS_PER_TURN + snapshotCycle(now) + statusDue(now);
            }
            work++;
        }
        while (!pending && work < EVENTS_PER_TURN && tail.poll(onEvent, 1) > 0) {
            work++;
            if (tail.unreadable() != tailUnreadable) {
                // Counted once: those sent again after a start were counted by the rebuild (or are in the checkpoint's count).
                if (tail.lastIndex() > booksThrough) {
                    unreadable += tail.unreadable() - tailUnreadable;
                    unreadableSaid(tail.lastIndex());
                }
                tailUnreadable = tail.unreadable();
            }
        }
        if (checkpointDue) {
            checkpointDue = false;
            checkpoint();
        }
        if (!pending && now - lastSendNanos >= config.heartbeatIntervalNanos()) {
            final int length = incrementalEncoder.heartbeat(seq, lastIndexRead, now);
            offer(incremental, incrementalEncoder, length);
            lastSendNanos = now;
        }
        work += snapshotCycle(now);
        work += statusDue(now);
        if (logClock.due()) {
            log.accept(describe());
        }
        return pending ? Math.max(work, EVENTS_PER_TURN) : work;
    }

    /**
     * Waits for the events queue, then rebuilds the books and the sequence (from the checkpoint when there is one that can
     * be used, else from the queue's beginning), writes a checkpoint through there, and decides where to send from:
     * {@value #REPUBLISH} incrementals before the last one a predecessor sent (the status file keeps it), or before the end of
     * the queue when there was none (or it is not in this queue).
     */
    private int open(final long now) {
        if (!data.hasQueue("events")) {
            return statusDue(now);
        }
        events = data.events();
        final long started = System.nanoTime();
        final Path checkpointFile = data.root().resolve("marketdata").resolve(ReaderCheckpoint.FILE);
        final Books fromCheckpoint = new Books();
        final PublisherCheckpoint.State state = PublisherCheckpoint.startingPoint(checkpointFile, data.root(), events, fromCheckpoint, log);
        checkpoints = new PublisherCheckpoint(checkpointFile, events, log, state == null ? -1 : state.eventsIndex());
        final Rebuild rebuild = new Rebuild(status.previousLastSentIndex());
        final ExcerptTailer tailer = events.createTailer();
        if (state != null) {
            books.copyFrom(fromCheckpoint);
            for (final int symbol : state.halted()) {
                final int slot = slotOfSymbol.get(symbol);
                if (slot >= 0) {
                    halted[slot] = true;
                }
            }
            rebuild.seed(state);
            skipTo(tailer, state.eventsIndex());
        }
        final EventTail reader = new EventTail(tailer);
        long read = 0;
        for (int n = reader.poll(rebuild, 4096); n > 0; n = reader.poll(rebuild, 4096)) {
            read += n;
            // A long queue takes seconds to read: the driver and the client's conductor, on this thread, must not look dead.
            driverTurns();
        }
        unreadable = (state == null ? 0 : state.unreadable()) + reader.unreadable();
        if (unreadable > 0) {
            unreadableSaid(booksThrough);
        }
        final long resumeAfter = rebuild.resumeAfter;
        if (resumeAfter >= 0 && !rebuild.found) {
            // The predecessor's last message is not in this queue: it numbered another one, so this numbering is new.
            final long epoch = status.renewEpoch();
            incrementalEncoder.epoch(epoch);
            snapshotEncoder.epoch(epoch);
            log.accept("marketdata: the last publisher's last message (events index " + Long.toHexString(resumeAfter)
                + ") is not in this events queue: a new numbering, epoch " + Long.toHexString(epoch));
        }
        bookSeq = rebuild.marketData;
        bookEventsIndex = booksThrough;
        lastIndexRead = booksThrough;
        cycleInBooks = booksThrough < 0 ? Integer.MIN_VALUE : events.rollCycle().toCycle(booksThrough);
        if (state == null || booksThrough != state.eventsIndex()) {
            checkpoint();
        }
        final long wanted = rebuild.resendFrom();
        final ExcerptTailer from = resendTailer(rebuild, wanted);
        if (from != null) {
            reader.close();
            tail = new EventTail(from);
        } else {
            // Nothing to send again: go on right after the last excerpt the rebuild read, so that nothing the engine
            // appended since (a publisher started together with the engine) is passed over.
            seq = bookSeq;
            tail = reader;
        }
        tailUnreadable = tail.unreadable();
        final String resume = rebuild.found ? "the last publisher sent through " + Long.toHexString(resumeAfter)
            + (rebuild.beforeKnown ? " (before the last " + REPUBLISH + " market-data excerpts the checkpoint keeps)"
            : " (seq " + rebuild.throughResume + ")") : "no earlier publisher's last message found";
        final String archived = from != null && seq > wanted || from == null && wanted < bookSeq
            ? "; those from seq " + (wanted + 1) + " before it are in archived days (not sent again)" : "";
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        log.accept(String.format("marketdata: %s: %d market-data excerpts (seq %d); %s%s; sending from seq %d",
            state == null ? "rebuilt from the events queue through " + Long.toHexString(booksThrough) + " in " + millis + " ms"
                : "rebuilt from checkpoint through " + Long.toHexString(state.eventsIndex()) + " (" + read + " excerpts read after it)"
                + " in " + millis + " ms, now through " + Long.toHexString(booksThrough),
            bookSeq, bookSeq, resume, archived, seq + 1));
        nextSnapshotNanos = now;
        sendFromNanos = System.nanoTime() + CONNECT_GRACE_NANOS;
        return 1;
    }

    /** Moves the tailer past the checkpoint's excerpt, which the checkpoint's state already includes. */
    private static void skipTo(final ExcerptTailer tailer, final long index) {
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException("cannot move to events index " + Long.toHexString(index) + " just fingerprinted");
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent() || dc.index() != index) {
                throw new IllegalStateException("no events excerpt at " + Long.toHexString(index) + ", just fingerprinted");
            }
        }
    }

    /**
     * A tailer at the first market-data excerpt to send again, from number {@code wanted} (from 0) on, and {@link #seq} set
     * before it; null when there is none to send again. Those in days archived since the checkpoint are passed over.
     */
    private ExcerptTailer resendTailer(final Rebuild rebuild, final long wanted) {
        final ExcerptTailer tailer = events.createTailer();
        int missingCycle = Integer.MIN_VALUE;
        for (long n = wanted; n < rebuild.marketData; n++) {
            final long index = rebuild.indexOf(n);
            if (index < 0) {
                break;
            }
            final int cycle = events.rollCycle().toCycle(index);
            if (cycle != missingCycle) {
                if (tailer.moveToIndex(index)) {
                    seq = n;
                    return tailer;
                }
                missingCycle = cycle;
            }
        }
        tailer.close();
        return null;
    }

    /**
     * What a start reads after its starting point: applies each excerpt to the books, counts the market data, and keeps the
     * events indices of the last {@value #REPUBLISH} market-data excerpts through the predecessor's last (or through the end,
     * while that is not found): where to send again from.
     */
    private final class Rebuild implements EventTail.Handler {
        private final long resumeAfter;
        /** Market-data excerpt n (from 0) at n % REPUBLISH, through the resume point. */
        private final long[] recent = new long[REPUBLISH];
        private long marketData;
        /** Market-data excerpts through the resume point (all of them while it is not found). */
        private long throughResume;
        private boolean found;
        /** The predecessor's last is older than what the checkpoint keeps: sent again from the oldest kept. */
        private boolean beforeKnown;
        /** The first market-data excerpt (from 0) whose index is known: after a checkpoint, its last REPUBLISH. */
        private long firstKnown;

        Rebuild(final long resumeAfter) {
            this.resumeAfter = resumeAfter;
        }

        /** Starts from a checkpoint's counts and its last market-data excerpts, and looks for the resume point among them. */
        void seed(final PublisherCheckpoint.State state) {
            final long[] kept = state.recent();
            final int n = Math.min(kept.length, REPUBLISH);
            marketData = state.marketData();
            throughResume = marketData;
            firstKnown = marketData - n;
            for (int i = 0; i < n; i++) {
                final long index = kept[kept.length - n + i];
                recent[(int) ((firstKnown + i) % REPUBLISH)] = index;
                recentInBooks[(int) ((firstKnown + i) % REPUBLISH)] = index;
                if (index == resumeAfter) {
                    throughResume = firstKnown + i + 1;
                    found = true;
                }
            }
            // Before the first kept but at or before the checkpoint: a market-data excerpt of this numbering, older than the
            // checkpoint keeps (the predecessor gave up or had not sent that many). Its successors are sent again from the
            // oldest kept.
            if (!found && firstKnown > 0 && resumeAfter >= 0 && resumeAfter < kept[kept.length - n]) {
                found = true;
                beforeKnown = true;
                throughResume = firstKnown;
            }
            booksThrough = state.eventsIndex();
        }

        @Override
        public void onEvent(final long index, final EventHeader header, final Result result) {
            if (FeedEncoder.carriesMarketData(result)) {
                recentInBooks[(int) (marketData % REPUBLISH)] = index;
                marketData++;
                if (!found) {
                    recent[(int) (throughResume++ % REPUBLISH)] = index;
                    found = index == resumeAfter;
                }
                applyToBooks(result);
            }
            booksThrough = index;
        }

        /** The first market-data excerpt (from 0) to send again. */
        long resendFrom() {
            return Math.max(throughResume - REPUBLISH, firstKnown);
        }

        /** The events index of market-data excerpt n (from 0), -1 when not known. */
        long indexOf(final long n) {
            if (n >= firstKnown && n < throughResume && n >= throughResume - REPUBLISH) {
                return recent[(int) (n % REPUBLISH)];
            }
            return n >= marketData - REPUBLISH && n < marketData ? recentInBooks[(int) (n % REPUBLISH)] : -1;
        }
    }

    /** Hands a copy of the state through {@link #bookEventsIndex} to the checkpoint's thread (unless it has it already). */
    private void checkpoint() {
        if (checkpoints == null || bookEventsIndex < 0 || bookEventsIndex == checkpoints.lastAsked()) {
            return;
        }
        int count = 0;
        for (final boolean h : halted) {
            count += h ? 1 : 0;
        }
        final int[] haltedSymbols = new int[count];
        for (int slot = 0, i = 0; slot < halted.length; slot++) {
            if (halted[slot]) {
                haltedSymbols[i++] = symbols.get(slot).id();
            }
        }
        checkpoints.writeInBackground(bookEventsIndex, PublisherCheckpoint.encode(bookSeq, unreadable, recentInBooks, haltedSymbols,
            books));
    }

    private void onEvent(final long index, final EventHeader header, final Result result) {
        if (!FeedEncoder.carriesMarketData(result)) {
            if (index > booksThrough) {
                inBooks(index);
            }
            lastIndexRead = index;
            return;
        }
        seq++;
        if (index > booksThrough) {
            applyToBooks(result);
            bookSeq = seq;
            recentInBooks[(int) ((seq - 1) % REPUBLISH)] = index;
            inBooks(index);
        }
        lastIndexRead = index;
        final long now = System.nanoTime();
        pendingLength = incrementalEncoder.incremental(seq, index, header.hops.engineAppendNanos, now, result,
            incremental.maxMessageLength());
        if (incrementalEncoder.leftOut()) {
            incrementalsLeftOut++;
            log.accept("marketdata: events excerpt " + Long.toHexString(index) + " (" + result.levelChangeCount() + " level changes, "
                + result.fillCount() + " fills) does not fit one message of " + incremental.maxMessageLength() + " bytes: seq " + seq
                + " is sent without them, flagged LEFT_OUT, and clients recover from the snapshots (a larger termLength fits more)");
        }
        lagMicros = (now - header.hops.engineAppendNanos) / 1_000;
        if (offer(incremental, incrementalEncoder, pendingLength)) {
            sent(index, now);
        } else {
            pending = true;
            pendingSinceNanos = now;
            backPressured++;
        }
    }

    /** The books include the excerpt at {@code index}: the first of a new day asks for a checkpoint. */
    private void inBooks(final long index) {
        bookEventsIndex = index;
        final int cycle = events.rollCycle().toCycle(index);
        if (cycle != cycleInBooks) {
            cycleInBooks = cycle;
            checkpointDue = true;
        }
    }

    /** Sends the back-pressured incremental again; past the limit it is given up (clients see a gap and recover). */
    private boolean resend(final long now) {
        if (offer(incremental, incrementalEncoder, pendingLength)) {
            sent(lastIndexRead, now);
            pending = false;
            return true;
        }
        if (now - pendingSinceNanos > config.backPressureLimitNanos()) {
            dropped++;
            pending = false;
            log.accept("marketdata: incremental " + seq + " back-pressured for longer than " + config.backPressureLimitNanos() / 1_000_000
                + " ms: given up (a slow receiver; clients recover from the snapshots)");
            return true;
        }
        return false;
    }

    private void sent(final long index, final long now) {
        messages++;
        lastSendNanos = now;
        // Every send, not once a second: after a kill -9 the next publisher resumes from here (an ordered store, no fence).
        status.lastSent(index);
    }

    /**
     * Offers with a few immediate retries, a driver turn before each (the driver, on this thread, is what sends and moves
     * the publication's limit); true when sent or when nobody is subscribed (then nobody misses it).
     */
    private boolean offer(final Publication publication, final FeedEncoder encoder, final int length) {
        for (int i = 0; i < OFFER_SPINS; i++) {
            if (i > 0) {
                aeron.turnDriver(1);
            }
            final long result = publication.offer(encoder.buffer(), 0, length);
            if (result > 0) {
                return true;
            }
            if (result == Publication.NOT_CONNECTED) {
                notConnected++;
                return true;
            }
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("the publication on " + publication.channel() + " is closed or full (" + result + ")");
            }
        }
        return false;
    }

    private void applyToBooks(final Result result) {
        for (int i = 0; i < result.levelChangeCount(); i++) {
            books.apply(result.levelChange(i));
        }
        if ((result.commandType == CommandType.HALT || result.commandType == CommandType.RESUME) && !result.isRejected()) {
            final int slot = slotOfSymbol.get(result.symbol);
            if (slot >= 0) {
                halted[slot] = result.commandType == CommandType.HALT;
            }
        }
    }

    /**
     * Every symbol's snapshot, all valid at the same sequence (no excerpt is read in between). A cycle cut short by back
     * pressure is taken up at the symbol it stopped at, so that the last symbols are not starved by the first ones.
     */
    private int snapshotCycle(final long now) {
        if (now < nextSnapshotNanos) {
            return 0;
        }
        nextSnapshotNanos = now + config.snapshotIntervalNanos();
        for (int n = 0; n < symbols.size(); n++) {
            final int slot = (firstSnapshotSlot + n) % symbols.size();
            final SymbolSpec symbol = symbols.get(slot);
            final int length = snapshotEncoder.snapshot(bookSeq, bookEventsIndex, symbol.id(), symbol.name(), symbol.priceScale(),
                symbols.size(), halted[slot], books.book(symbol.id()), snapshots.maxMessageLength());
            if (snapshotEncoder.leftOut() && snapshotsCut++ == 0) {
                log.accept("marketdata: " + symbol.name() + "'s book is too deep for one snapshot message of "
                    + snapshots.maxMessageLength() + " bytes: its snapshots carry the best levels that fit, flagged LEFT_OUT"
                    + " (said once; counted in the status line)");
            }
            if (!offer(snapshots, snapshotEncoder, length)) {
                // Cut short rather than wait: the next cycle comes soon, and incrementals must not wait for snapshots.
                snapshotCyclesCut++;
                firstSnapshotSlot = slot;
                return n;
            }
            snapshotsSent++;
        }
        return symbols.size();
    }

    private int statusDue(final long now) {
        if (status == null || now < nextStatusNanos) {
            return 0;
        }
        nextStatusNanos = now + STATUS_NANOS;
        status.put(MarketDataStatusFile.HEARTBEAT_EPOCH_MILLIS_AT, System.currentTimeMillis());
        status.put(MarketDataStatusFile.MESSAGES_AT, messages);
        status.put(MarketDataStatusFile.LAST_EVENTS_INDEX_AT, lastIndexRead);
        status.put(MarketDataStatusFile.SEQ_AT, seq);
        status.put(MarketDataStatusFile.BACK_PRESSURE_AT, backPressured);
        status.put(MarketDataStatusFile.DROPPED_AT, dropped);
        status.put(MarketDataStatusFile.LAG_EVENTS_AT, lagEvents());
        status.put(MarketDataStatusFile.LAG_MICROS_AT, lagMicros);
        status.put(MarketDataStatusFile.SNAPSHOTS_AT, snapshotsSent);
        status.put(MarketDataStatusFile.NOT_CONNECTED_AT, notConnected);
        return 1;
    }

    /**
     * Excerpts in the queue after the last one read (counted within a roll cycle; across one, the newest cycle's). A tailer
     * of its own moved to the end, kept from call to call: the queue's lastIndex() opens and closes one each time, which
     * allocates.
     */
    private long lagEvents() {
        if (events == null) {
            return 0;
        }
        if (endTailer == null) {
            endTailer = events.createTailer();
        }
        // At the end, the tailer's index is where the next excerpt will be written: one past the last.
        final long next = endTailer.toEnd().index();
        final RollCycle cycle = events.rollCycle();
        if (cycle.toSequenceNumber(next) == 0) {
            return 0;
        }
        final long last = next - 1;
        if (lastIndexRead < 0 || cycle.toCycle(last) != cycle.toCycle(lastIndexRead)) {
            return cycle.toSequenceNumber(last) + 1;
        }
        return cycle.toSequenceNumber(last) - cycle.toSequenceNumber(lastIndexRead);
    }

    /**
     * An events excerpt that cannot be read: whatever levels it changed are wrong in the books, in every snapshot and in
     * every client's book from here on, and nothing in the events can repair that; said in the log (and counted in the status
     * line) for an operator to restore the events queue.
     */
    private void unreadableSaid(final long near) {
        log.accept("marketdata: " + unreadable + " events excerpts cannot be read (the last near index " + Long.toHexString(near)
            + "): the levels they changed may be wrong in the books published from here on; restore the events queue"
            + " (docs/recovery.md)");
    }

    /** A status line: what was sent and how it went. */
    public String describe() {
        return String.format("marketdata: seq %d, events through %s, %d incrementals and %d snapshots sent, %d back-pressured"
                + " (%d given up), %d snapshot cycles cut short, %d sent with no subscriber, %d too big (sent LEFT_OUT), %d snapshots"
                + " cut to their best levels, %d events excerpts unreadable", seq, Long.toHexString(lastIndexRead), messages,
            snapshotsSent, backPressured, dropped, snapshotCyclesCut, notConnected, incrementalsLeftOut, snapshotsCut, unreadable);
    }

    /** The loop's idle strategy: a park after a turn with less than a full batch of excerpts (docs/marketdata.md, "Idling"). */
    public static IdleStrategy idleStrategy(final String idleName, final FeedConfig config) {
        return IdleStrategies.pacedByName(idleName, config.pauseNanos(), EVENTS_PER_TURN);
    }

    /** The last sequence sent. */
    public long seq() {
        return seq;
    }

    @Override
    public void onClose() {
        if (tail != null) {
            checkpoint();
            log.accept(describe());
        }
        // The checkpoint's thread reads the events queue (its excerpt's fingerprint): done before the queue is closed.
        CloseHelper.closeAll(checkpoints, tail, endTailer, events, status, aeron);
    }

    @Override
    public String roleName() {
        return "marketdata";
    }
}
