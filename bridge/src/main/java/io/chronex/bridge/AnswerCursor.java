package io.chronex.bridge;

import io.chronex.api.Command;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The host journal's next command still waiting for its result, read one ahead: the bridge writes results into the
 * host's events queue strictly in journal order, so a result is taken only when it answers exactly this command.
 */
final class AnswerCursor implements AutoCloseable {
    private final ExcerptTailer tailer;
    private final Command command = new Command();
    /** Routing of the waiting command (for an answer the bridge writes itself); valid when {@link #present}. */
    final Hops hops = new Hops();
    /** Whether there is a waiting command (the journal may not have one yet). */
    boolean present;
    /** Its journal index. */
    long index;
    /** Whether it cannot be decoded: no engine could apply it, so the bridge answers it itself and never sends it. */
    boolean malformed;

    /** A cursor at the first command after {@code answeredThrough} (-1: from the start). */
    AnswerCursor(final SingleChronicleQueue commands, final long answeredThrough) {
        tailer = commands.createTailer();
        BridgeJournal.after(tailer, answeredThrough);
        load();
    }

    /** Looks again for a waiting command when there was none. */
    void refresh() {
        if (!present) {
            load();
        }
    }

    /** The waiting command was answered: moves to the next. */
    void advance() {
        present = false;
        load();
    }

    private void load() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return;
            }
            index = dc.index();
            final Bytes<?> in = dc.wire().bytes();
            hops.clear();
            malformed = CommandCodec.read(in, command, hops) != DecodeStatus.OK;
            present = true;
        }
    }

    @Override
    public void close() {
        tailer.close();
    }
}
