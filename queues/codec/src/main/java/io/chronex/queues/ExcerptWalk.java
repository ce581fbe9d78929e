package io.chronex.queues;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.core.io.ReferenceOwner;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wires;

/**
 * A forward read of a queue, most of it straight from the mapped file: for the engine's recovery replay, the
 * monitor and the audit tools. Chronicle's tailer costs more per excerpt than decoding one, so after each
 * excerpt the tailer hands out, the excerpts that follow it in the same mapped chunk are read in place, the
 * way the tailer itself reads them: a 4-byte header (length and flags) at a 4-byte aligned offset, metadata
 * (Chronicle's index pages) skipped, one index per data excerpt. Anything else (an excerpt not yet complete,
 * the end of a cycle or of the chunk) hands back to the tailer, first moved to the last excerpt read and
 * checked to find it there, so a walk that ever counted differently from Chronicle fails loudly instead of
 * misnumbering.
 *
 * <p>After {@link #next()} returns true, the excerpt is {@link #length()} bytes at {@link #offset()} of
 * {@link #in()}, valid until the next call (one the tailer handed out is read through its document, open
 * until then). Not thread-safe; close it to let the mapped chunk go.
 */
public final class ExcerptWalk implements AutoCloseable {
    private final ExcerptTailer tailer;
    private final ReferenceOwner owner = ReferenceOwner.temporary("excerpt walk");
    /**
     * The document the tailer handed out, kept open until the next move. Its excerpt is read in the mapped chunk when
     * it lies inside it, else through the tailer's own bounds-checked bytes (a copy of a damaged excerpt's whole length
     * once reached past the end of a truncated file).
     */
    private DocumentContext document;
    /** The mapped chunk being read in place, reserved while held; null when the tailer reads next. */
    private BytesStore<?, ?> store;
    /** Offset in {@link #store} of the next excerpt's header. */
    private long header;
    /** The tailer stands just after {@link #tailerIndex}; the walk may be further on in memory. */
    private long tailerIndex = -1;
    private RandomDataInput in;
    private long offset;
    private int length;
    private long index = -1;
    private long fromMemory;
    private long handovers;

    /** Walks from where the tailer stands. */
    public ExcerptWalk(final ExcerptTailer tailer) {
        this.tailer = tailer;
    }

    /** Moves to the next data excerpt; false when there is none (yet): a later call may find one. */
    public boolean next() {
        closeDocument();
        while (store != null) {
            final int read = fromMemory();
            if (read > 0) {
                return true;
            }
            if (read < 0) {
                release();
            }
        }
        if (index != tailerIndex) {
            handovers++;
            resync();
        }
        final DocumentContext dc = tailer.readingDocument();
        if (!dc.isPresent()) {
            dc.close();
            return false;
        }
        document = dc;
        final Bytes<?> bytes = dc.wire().bytes();
        index = dc.index();
        tailerIndex = index;
        offset = bytes.readPosition();
        length = (int) bytes.readRemaining();
        store = bytes.bytesStore();
        // Read in the mapped chunk, like the excerpts after it, when it lies inside: readers then always see one type,
        // and the JIT need not recompile them when the other turns up (a handover every chunk).
        in = store.inside(offset, length) ? store : bytes;
        // Held so that the chunk stays mapped whatever the tailer does with it.
        store.reserve(owner);
        header = align(bytes.readLimit());
        return true;
    }

    /** Closes the tailer's document of the current excerpt, if it is one: the tailer moves past it. */
    private void closeDocument() {
        if (document != null) {
            final DocumentContext dc = document;
            document = null;
            dc.close();
        }
    }

    /**
     * The excerpt at {@link #header} in the held chunk: 1 when it is data (now the current excerpt), 0 when
     * it was metadata (skipped), -1 when the tailer must take over.
     */
    private int fromMemory() {
        final BytesStore<?, ?> chunk = store;
        final long at = header;
        if (!chunk.inside(at, Wires.SPB_HEADER_SIZE)) {
            return -1;
        }
        final int word = chunk.readVolatileInt(at);
        if (word == 0 || Wires.isNotComplete(word)) {
            return -1;
        }
        final int size = Wires.lengthOf(word);
        final long excerpt = at + Wires.SPB_HEADER_SIZE;
        if (!chunk.inside(excerpt, size)) {
            return -1;
        }
        header = align(excerpt + size);
        if (!Wires.isData(word)) {
            return 0;
        }
        in = chunk;
        offset = excerpt;
        length = size;
        index++;
        fromMemory++;
        return 1;
    }

    /** Puts the tailer just after the current excerpt, checking that the walk counted as Chronicle does. */
    private void resync() {
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException("cannot find index 0x" + Long.toHexString(index) + " in " + tailer.queue().fileAbsolutePath());
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent() || dc.index() != index) {
                throw new IllegalStateException("reading " + tailer.queue().fileAbsolutePath() + " straight from memory went out of step at"
                    + " index 0x" + Long.toHexString(index) + " (the tailer found " + (dc.isPresent() ? "0x" + Long.toHexString(dc.index())
                    : "nothing") + ")");
            }
        }
        tailerIndex = index;
    }

    /** Leaves the tailer just after the current excerpt (the walk may have read on in memory); for a caller that goes on with it. */
    public void syncTailer() {
        closeDocument();
        release();
        if (index != tailerIndex) {
            resync();
        }
    }

    /**
     * Makes {@code target} the next excerpt; false when the queue has no such index, the walk then where it was (or,
     * before its first excerpt, wherever the failed move left the tailer).
     */
    public boolean moveToIndex(final long target) {
        closeDocument();
        release();
        if (!tailer.moveToIndex(target)) {
            // Where a failed move leaves the tailer is not said: put it back after the current excerpt.
            if (index >= 0) {
                resync();
            }
            return false;
        }
        index = target - 1;
        tailerIndex = index;
        return true;
    }

    /** Where the current excerpt's bytes are: {@link #length()} bytes from {@link #offset()}. */
    public RandomDataInput in() {
        return in;
    }

    public long offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** The current excerpt's index in the queue. */
    public long index() {
        return index;
    }

    /** Excerpts read in place rather than through the tailer, so far. */
    public long readInPlace() {
        return fromMemory;
    }

    /** Times a walk in place handed back to the tailer, so far. */
    public long handovers() {
        return handovers;
    }

    private void release() {
        if (store != null) {
            store.release(owner);
            store = null;
        }
    }

    @Override
    public void close() {
        closeDocument();
        release();
    }

    /** Chronicle starts every excerpt header on a 4-byte boundary. */
    private static long align(final long offset) {
        return (offset + 3) & ~3L;
    }
}
