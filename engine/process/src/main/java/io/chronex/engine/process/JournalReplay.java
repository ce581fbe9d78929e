package io.chronex.engine.process;

import io.chronex.engine.MatchingEngine;
import io.chronex.api.Command;
import io.chronex.api.Result;
import io.chronex.api.ConfigChange;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.ConfigRecord;
import io.chronex.queues.JournalConfig;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.ExcerptWalk;
import io.chronex.queues.Hops;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Recovery's replay of the journal into an engine, writing nothing. Chronicle's tailer costs more
 * per excerpt than decoding and applying a command together, so the journal is read with an
 * {@link ExcerptWalk}: most excerpts straight from the mapped file, the walk checked against the
 * tailer at each hand-over, so a walk that ever counted differently from Chronicle fails loudly
 * instead of misnumbering commands.
 *
 * <p>A command that fails to decode changes nothing in the engine, as on the live path, where it
 * is answered as malformed.
 */
final class JournalReplay {
    private MatchingEngine engine;
    private final JournalConfig.Follower follower;
    private final Command command = new Command();
    private final Result result = new Result();
    private final Hops hops = new Hops();
    private long readFromMemory;
    /** The last journal index applied, -1 before the first. */
    private long lastRead = -1;
    private long handovers;

    /** Replays into {@code engine} a journal whose configuration records (if any) start with its first one. */
    JournalReplay(final MatchingEngine engine) {
        this(engine, new JournalConfig.Follower(null));
    }

    /** Replays into {@code engine}; configuration records are answered by {@code follower} (which knows the one in force). */
    JournalReplay(final MatchingEngine engine, final JournalConfig.Follower follower) {
        this.engine = engine;
        this.follower = follower;
    }

    /** The engine after the replay: another one when a configuration change was replayed. */
    MatchingEngine engine() {
        return engine;
    }

    JournalConfig.Follower follower() {
        return follower;
    }

    /**
     * Applies every command from the tailer's position up to and including journal index
     * {@code through}, and leaves the tailer just after it; returns how many commands were applied (configuration records
     * are answered, not counted). Throws,
     * naming {@code root}, when the journal ends before that index or skips it.
     */
    long replay(final ExcerptTailer tailer, final long through, final Path root) {
        long count = 0;
        try (ExcerptWalk walk = new ExcerptWalk(tailer)) {
            while (true) {
                if (!walk.next()) {
                    throw new IllegalStateException("the commands journal " + file(root) + " ends "
                        + (lastRead < 0 ? "before its first command to replay" : "after index " + Long.toHexString(lastRead))
                        + ", but the events queue in " + root + " answers command index " + Long.toHexString(through)
                        + ": the journal is truncated or damaged, or the two queues are not from the same data directory");
                }
                final long index = walk.index();
                if (index > through) {
                    throw new IllegalStateException("the commands journal " + file(root) + " has no entry at index "
                        + Long.toHexString(through) + " (it goes from " + (lastRead < 0 ? "the start" : Long.toHexString(lastRead)) + " to "
                        + Long.toHexString(index) + "), which the events queue in " + root
                        + " answers: the journal is damaged, or the two queues are not from the same data directory");
                }
                // One call per excerpt, so the per-command work is a method compiled on its own: with the whole walk
                // inline in this loop, one cold replay threw away its on-stack compilation twice (-XX:+PrintCompilation).
                count += apply(walk.in(), walk.offset(), walk.length(), index);
                lastRead = index;
                if (index == through) {
                    walk.syncTailer();
                    readFromMemory += walk.readInPlace();
                    handovers += walk.handovers();
                    return count;
                }
            }
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

    /** Applies one excerpt; returns 1 for a command (malformed ones too), 0 for a configuration record (not counted). */
    private int apply(final RandomDataInput in, final long at, final long length, final long index) {
        if (CommandCodec.readAt(in, at, length, command, hops) == DecodeStatus.OK) {
            engine.apply(command, result);
        } else if (ConfigRecord.is(in, at, length)) {
            final ConfigChange change = follower.answer(in, at, length, index, result);
            if (change != null) {
                engine = engine.reconfigured(change);
            }
            return 0;
        }
        return 1;
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
}
