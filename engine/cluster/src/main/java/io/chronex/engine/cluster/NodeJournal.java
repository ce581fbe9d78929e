package io.chronex.engine.cluster;

import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandOrigin;
import io.chronex.queues.CommandText;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.EventTail;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.util.MicroTouched;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * A cluster node's own commands and events queues, the same layout a single-host engine writes: every command
 * the cluster's log applies (with its {@link CommandOrigin}) and its result, in log order, each exactly once.
 * The log is replayed from the last snapshot whenever a node starts, so what this journal already holds is told
 * by log position: the origin of its last command says how far it got, and only a command after that is written.
 * Its first excerpt is the configuration record (as bin/engine's is), written with the first command the log applies
 * and stamped with that command's cluster time, so that every member's journal is the same to the byte.
 */
final class NodeJournal implements AutoCloseable {
    private final DataDirectory data;
    private final SingleChronicleQueue commands;
    private final SingleChronicleQueue events;
    private final ExcerptAppender commandAppender;
    private final ExcerptAppender eventAppender;
    /** The log position just after the last command this journal holds; -1 when it holds none. */
    private long heldThrough = -1;
    /** The journal index of that last command, -1 when none. */
    private long lastCommandIndex = -1;
    /** True while the last command held has no result yet (a crash between the two appends). */
    private boolean lastUnanswered;
    private final CommandOrigin origin = new CommandOrigin();
    /** True when the last excerpt is the configuration record (nothing after it yet). */
    private boolean lastIsRecord;
    private final EventHeader recordHeader = new EventHeader();
    private final Result recordResult = new Result();
    /** Bytes appended by this run, excerpt headers included: what the member's storage guard counts down. */
    private long bytesWritten;

    /** Opens the data directory's queues and finds how far they got; throws when they disagree with each other. */
    NodeJournal(final DataDirectory data) {
        this.data = data;
        this.commands = data.commands();
        this.events = data.events();
        findEnd();
        this.commandAppender = commands.createAppender();
        this.eventAppender = events.createAppender();
    }

    private void findEnd() {
        try (ExcerptTailer back = commands.createTailer().direction(TailerDirection.BACKWARD).toEnd();
             DocumentContext dc = back.readingDocument()) {
            if (dc.isPresent()) {
                final Bytes<?> in = dc.wire().bytes();
                if (ConfigRecord.is(in, in.readPosition(), in.readRemaining())) {
                    lastIsRecord = true; // written just before the first command, which a crash kept from coming
                    lastCommandIndex = dc.index();
                } else if (!CommandCodec.readOrigin(in, in.readPosition(), in.readRemaining(), origin)) {
                    throw new IllegalStateException("the commands journal in " + data.root() + " ends with a command that no cluster node"
                        + " wrote (index " + Long.toHexString(dc.index()) + ", without a log position): this is not a cluster node's data"
                        + " directory, or something else appended to it. A node's journal is written by the node alone.");
                } else {
                    heldThrough = origin.logPosition;
                    lastCommandIndex = dc.index();
                }
            }
        }
        final long lastAnswered = EventTail.lastAnswered(events);
        if (lastAnswered == lastCommandIndex) {
            return;
        }
        if (lastCommandIndex >= 0 && lastAnswered == previousCommandIndex(lastCommandIndex)) {
            lastUnanswered = true;
            return;
        }
        throw new IllegalStateException("the events queue in " + data.root() + " answers up to command "
            + Long.toHexString(lastAnswered) + " but the commands journal ends at " + Long.toHexString(lastCommandIndex)
            + ": the two do not belong together (a node writes each result right after its command)");
    }

    private long previousCommandIndex(final long index) {
        try (ExcerptTailer back = commands.createTailer().direction(TailerDirection.BACKWARD)) {
            if (!back.moveToIndex(index)) {
                return -2;
            }
            try (DocumentContext last = back.readingDocument()) {
                if (!last.isPresent()) {
                    return -2;
                }
            }
            try (DocumentContext before = back.readingDocument()) {
                return before.isPresent() ? before.index() : -1;
            }
        }
    }

    /**
     * The configuration the journal records (its first excerpt's text), or null when it records none: a member's journal
     * from before members recorded it, or an empty one.
     */
    static String recordedConfiguration(final DataDirectory data) {
        try (SingleChronicleQueue commands = data.commands(); ExcerptTailer tailer = commands.createTailer();
             DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return null;
            }
            final Bytes<?> in = dc.wire().bytes();
            if (!ConfigRecord.is(in, in.readPosition(), in.readRemaining())) {
                return null;
            }
            return new String(ConfigRecord.read(in, in.readPosition(), in.readRemaining()).text(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Before the first command of an empty journal: the configuration record, stamped {@code recordedNanos} (the command's cluster
     * time, the same on every member), and its answer; a record a crash left unanswered is answered. Otherwise nothing.
     */
    void recordConfigurationIfFirst(final String text, final long recordedNanos) {
        if (lastCommandIndex < 0) {
            lastCommandIndex = ConfigRecord.append(commandAppender, ConfigRecord.Kind.INITIAL, recordedNanos, text);
            lastIsRecord = true;
            lastUnanswered = true;
        }
        if (lastIsRecord && lastUnanswered) {
            recordHeader.hops.clear();
            recordHeader.checkpoint = false;
            recordHeader.stateHash = 0;
            recordHeader.commandIndex = lastCommandIndex;
            recordResult.answerConfiguration(true);
            appendResult(recordHeader, recordResult);
        }
        lastIsRecord = false;
    }

    /** Bytes this run appended to the two queues. */
    long bytesWritten() {
        return bytesWritten;
    }

    /** The log position after the last command held, -1 for none. */
    long heldThrough() {
        return heldThrough;
    }

    /** Whether the command the log put just before {@code logPosition} is already in this journal. */
    boolean holds(final long logPosition) {
        return logPosition <= heldThrough;
    }

    /**
     * Whether the command at {@code logPosition}, already held, is the last one held and still waits for its result;
     * its journal index is then {@link #lastCommandIndex()}.
     */
    boolean unansweredAt(final long logPosition) {
        return lastUnanswered && logPosition == heldThrough;
    }

    long lastCommandIndex() {
        return lastCommandIndex;
    }

    /** Appends a command with its origin; returns its journal index. */
    long appendCommand(final Command c, final EventHeader header, final CommandText text, final CommandOrigin from) {
        final long index;
        try (DocumentContext dc = commandAppender.writingDocument()) {
            final long at = dc.wire().bytes().writePosition();
            CommandCodec.write(dc.wire().bytes(), c, header.hops, text, from);
            bytesWritten += dc.wire().bytes().writePosition() - at + Integer.BYTES;
            index = dc.index();
        }
        heldThrough = from.logPosition;
        lastCommandIndex = index;
        lastUnanswered = true;
        return index;
    }

    /** Appends the result of the last command held (header.commandIndex names it). */
    void appendResult(final EventHeader header, final Result result) {
        try (DocumentContext dc = eventAppender.writingDocument()) {
            header.hops.engineAppendNanos = System.nanoTime();
            final long at = dc.wire().bytes().writePosition();
            EventCodec.write(dc.wire().bytes(), header, result);
            bytesWritten += dc.wire().bytes().writePosition() - at + Integer.BYTES;
        }
        lastUnanswered = false;
    }

    /**
     * Between commands, on the service's thread: touches the page after each queue's last excerpt, if not yet (Chronicle's
     * {@link MicroTouched}: a compare-and-swap of zero for zero on its first word, which changes no byte), so that the page
     * fault of a fresh page happens here rather than in the next append: the appends' p99 fell 3-4x (docs/performance.md,
     * issue 38). True when a page was touched.
     */
    boolean touchAhead() {
        return touch(commandAppender) | touch(eventAppender);
    }

    private static boolean touch(final ExcerptAppender appender) {
        return appender instanceof MicroTouched touched && touched.microTouch();
    }

    SingleChronicleQueue commands() {
        return commands;
    }

    SingleChronicleQueue events() {
        return events;
    }

    @Override
    public void close() {
        commands.close();
        events.close();
    }
}
