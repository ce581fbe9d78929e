package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.core.io.ReferenceOwner;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Wires;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Recovery's replay of the journal into an engine, writing nothing. Chronicle's tailer costs more
 * per excerpt than decoding and applying a command together, so after each excerpt the tailer
 * reads, the excerpts that follow it in the same mapped chunk are read straight from memory, the
 * way the tailer itself would read them: a 4-byte header (length and flags) at a 4-byte aligned
 * offset, metadata (Chronicle's index pages) skipped, one journal index per data excerpt. Anything
 * else (an excerpt not yet complete, the end of a cycle, the end of the chunk) hands back to the
 * tailer, which is first moved to the last excerpt read and checked to find it there, so a walk
 * that ever counted differently from Chronicle fails loudly instead of misnumbering commands.
 *
 * <p>A command that fails to decode changes nothing in the engine, as on the live path, where it
 * is answered as malformed.
 */
final class JournalReplay {
    private final MatchingEngine engine;
    private final Command command = new Command();
    private final Result result = new Result();
    private final Hops hops = new Hops();
    private final ReferenceOwner owner = ReferenceOwner.temporary("journal replay");
    /** The mapped chunk being read straight from memory, reserved while held; null when the tailer reads. */
    private BytesStore<?, ?> store;
    /** Offset in {@link #store} of the next excerpt header. */
    private long header;
    private long readFromMemory;
    /** The last journal index applied, -1 before the first. */
    private long lastRead = -1;
    private long handovers;

    JournalReplay(final MatchingEngine engine) {
        this.engine = engine;
    }

    /**
     * Applies every command from the tailer's position up to and including journal index
     * {@code through}, and leaves the tailer just after it; returns how many were applied. Throws,
     * naming {@code root}, when the journal ends before that index or skips it.
     */
    long replay(final ExcerptTailer tailer, final long through, final Path root) {
        long count = 0;
        while (true) {
            final long first = readThroughTailer(tailer, through, root);
            count++;
            long last = first;
            // One call per excerpt, so the per-command work is a method compiled on its own: with
            // the whole walk inline in this loop, one cold replay threw away its on-stack
            // compilation twice (seen with -XX:+PrintCompilation).
            try {
                while (last != through && store != null) {
                    final int read = fromMemory();
                    if (read > 0) {
                        count++;
                        last++;
                    } else if (read < 0) {
                        release();
                    }
                }
            } finally {
                release();
            }
            lastRead = last;
            if (last != first) {
                handovers++;
                resync(tailer, last, root);
            }
            if (last == through) {
                return count;
            }
        }
    }

    /**
     * Reads and applies the excerpt at the tailer, keeping hold of the mapped chunk it lies in and
     * the offset just after it, where {@link #fromMemory()} goes on; returns its journal index.
     */
    private long readThroughTailer(final ExcerptTailer tailer, final long through, final Path root) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("the commands journal " + file(root) + " ends "
                    + (lastRead < 0 ? "before its first command to replay" : "after index " + Long.toHexString(lastRead))
                    + ", but the events queue in " + root + " answers command index " + Long.toHexString(through)
                    + ": the journal is truncated or damaged, or the two queues are not from the same data directory");
            }
            final long index = dc.index();
            if (index > through) {
                throw new IllegalStateException("the commands journal " + file(root) + " has no entry at index "
                    + Long.toHexString(through) + " (it goes from " + (lastRead < 0 ? "the start" : Long.toHexString(lastRead)) + " to "
                    + Long.toHexString(index) + "), which the events queue in " + root
                    + " answers: the journal is damaged, or the two queues are not from the same data directory");
            }
            final Bytes<?> bytes = dc.wire().bytes();
            apply(bytes, bytes.readPosition(), bytes.readRemaining());
            store = bytes.bytesStore();
            // Held so that the chunk stays mapped whatever the tailer does with it.
            store.reserve(owner);
            header = align(bytes.readLimit());
            return index;
        }
    }

    /**
     * The excerpt at {@link #header} in the held chunk: 1 when it was a command (applied), 0 when
     * it was metadata (skipped), -1 when the tailer must take over.
     */
    private int fromMemory() {
        final BytesStore<?, ?> in = store;
        final long at = header;
        if (!in.inside(at, Wires.SPB_HEADER_SIZE)) {
            return -1;
        }
        final int word = in.readVolatileInt(at);
        if (word == 0 || Wires.isNotComplete(word)) {
            return -1;
        }
        final int length = Wires.lengthOf(word);
        final long excerpt = at + Wires.SPB_HEADER_SIZE;
        if (!in.inside(excerpt, length)) {
            return -1;
        }
        header = align(excerpt + length);
        if (Wires.isData(word)) {
            apply(in, excerpt, length);
            readFromMemory++;
            return 1;
        }
        return 0;
    }

    private void release() {
        if (store != null) {
            store.release(owner);
            store = null;
        }
    }

    /** Excerpts read straight from memory rather than through the tailer, since this instance was made. */
    long readFromMemory() {
        return readFromMemory;
    }

    /** Times a walk through memory handed back to the tailer. */
    long handovers() {
        return handovers;
    }

    private void apply(final RandomDataInput in, final long at, final long length) {
        if (CommandCodec.readAt(in, at, length, command, hops) == DecodeStatus.OK) {
            engine.apply(command, result);
        }
    }

    /** Puts the tailer just after journal index {@code index}, checking that the walk counted as Chronicle does. */
    private static void resync(final ExcerptTailer tailer, final long index, final Path root) {
        if (!tailer.moveToIndex(index)) {
            throw new IllegalStateException("cannot find journal index " + Long.toHexString(index) + " in " + root);
        }
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent() || dc.index() != index) {
                throw new IllegalStateException("reading the journal of " + root + " straight from memory went out of step at index "
                    + Long.toHexString(index) + " (the tailer found " + (dc.isPresent() ? Long.toHexString(dc.index()) : "nothing") + ")");
            }
        }
    }

    /** The journal's files, for error messages: the newest named with its size. */
    private static String file(final Path root) {
        final Path dir = root.resolve("commands");
        try (Stream<Path> files = Files.list(dir)) {
            final List<Path> cycles = files.filter(f -> f.getFileName().toString().endsWith(".cq4")).sorted().toList();
            if (cycles.isEmpty()) {
                return dir + " (no .cq4 file)";
            }
            final Path last = cycles.get(cycles.size() - 1);
            return last + " (" + Files.size(last) + " bytes"
                + (cycles.size() > 1 ? ", the newest of " + cycles.size() + " files" : "") + ")";
        } catch (final IOException e) {
            return dir + " (cannot list: " + e.getMessage() + ")";
        }
    }

    /** Chronicle starts every excerpt header on a 4-byte boundary. */
    private static long align(final long offset) {
        return (offset + 3) & ~3L;
    }
}
