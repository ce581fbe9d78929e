package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.engine.api.Command;
import io.chronex.engine.api.EngineConfig;
import io.chronex.engine.api.OrderStatus;
import io.chronex.engine.api.RejectReason;
import io.chronex.engine.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The engine on the queues: reads the commands journal in order, applies each command, and appends
 * its whole result as one events excerpt naming the command's journal index. On start it finds the
 * last command answered (the index in the last events excerpt) and replays the journal up to it
 * without writing, so after any crash every command is answered exactly once.
 */
public final class EngineService implements AutoCloseable {
    private final SingleChronicleQueue commands;
    private final SingleChronicleQueue events;
    private final MatchingEngine engine;
    private final ExcerptTailer commandTailer;
    private final ExcerptAppender eventAppender;
    private final Command command = new Command();
    private final Result result = new Result();
    private final EventHeader header = new EventHeader();
    private final long[] rejects = new long[RejectReason.values().length];

    private final long recoveredThrough;
    private final long replayedCommands;
    private final long recoveryNanos;
    private long lastAnswered;
    private long answered;

    public EngineService(final DataDirectory data, final EngineConfig config) {
        final long start = System.nanoTime();
        this.commands = data.commands();
        this.events = data.events();
        this.engine = new MatchingEngine(config, 4096);
        this.commandTailer = commands.createTailer();
        this.eventAppender = events.createAppender();
        this.recoveredThrough = lastAnsweredCommand(data);
        long replayed = 0;
        if (recoveredThrough >= 0) {
            while (true) {
                try (DocumentContext dc = commandTailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        throw new IllegalStateException("the events queue in " + data.root() + " answers command index "
                            + Long.toHexString(recoveredThrough) + " but the commands journal ends before it: wrong or damaged data directory");
                    }
                    decodeAndApply(dc.wire().bytes());
                    replayed++;
                    if (dc.index() == recoveredThrough) {
                        break;
                    }
                    if (dc.index() > recoveredThrough) {
                        throw new IllegalStateException("the commands journal has no entry at index " + Long.toHexString(recoveredThrough)
                            + ", which the events queue answers: wrong or damaged data directory " + data.root());
                    }
                }
            }
        }
        this.replayedCommands = replayed;
        this.lastAnswered = recoveredThrough;
        this.recoveryNanos = System.nanoTime() - start;
    }

    /** The journal index named by the last events excerpt, or -1 when nothing was answered yet. */
    private long lastAnsweredCommand(final DataDirectory data) {
        final ExcerptTailer tailer = events.createTailer().direction(TailerDirection.BACKWARD).toEnd();
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final DecodeStatus status = EventCodec.read(dc.wire().bytes(), header, result);
            if (status != DecodeStatus.OK) {
                throw new IllegalStateException("cannot read the last events excerpt (index " + Long.toHexString(dc.index()) + ") in "
                    + data.root().resolve("events") + ": " + status);
            }
            return header.commandIndex;
        }
    }

    private void decodeAndApply(final Bytes<?> in) {
        header.hops.clear();
        final DecodeStatus status = CommandCodec.read(in, command, header.hops);
        if (status == DecodeStatus.OK) {
            engine.apply(command, result);
        } else {
            // Answered, so the journal position is not retried forever; nothing in the engine changes.
            result.reset(null);
            result.rejectReason = RejectReason.MALFORMED_COMMAND;
            result.orderStatus = OrderStatus.REJECTED;
        }
    }

    /** Processes the next command if there is one; returns whether it did. */
    public boolean poll() {
        try (DocumentContext dc = commandTailer.readingDocument()) {
            if (!dc.isPresent()) {
                return false;
            }
            final long readNanos = System.nanoTime();
            final long index = dc.index();
            decodeAndApply(dc.wire().bytes());
            header.commandIndex = index;
            header.hops.engineReadNanos = readNanos;
            header.hops.engineDoneNanos = System.nanoTime();
            try (DocumentContext out = eventAppender.writingDocument()) {
                header.hops.engineAppendNanos = System.nanoTime();
                EventCodec.write(out.wire().bytes(), header, result);
            }
            rejects[result.rejectReason.ordinal()]++;
            lastAnswered = index;
            answered++;
            return true;
        }
    }

    public long lastAnswered() {
        return lastAnswered;
    }

    /** Commands answered by this instance (not counting the replay). */
    public long answered() {
        return answered;
    }

    public long recoveredThrough() {
        return recoveredThrough;
    }

    public long replayedCommands() {
        return replayedCommands;
    }

    public long recoveryNanos() {
        return recoveryNanos;
    }

    /** Answers by reject reason since start (index = ordinal; NONE counts accepted commands). */
    public long[] rejectCounts() {
        return rejects;
    }

    public long stateHash() {
        return engine.stateHash();
    }

    @Override
    public void close() {
        commands.close();
        events.close();
    }
}
