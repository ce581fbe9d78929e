package io.chronex.replay.audit;

import io.chronex.engine.MatchingEngine;
import io.chronex.queues.SnapshotFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Verify's checkpoints: the state hashes the engine recorded in its results (every {@code --checkpoint-every}
 * commands) and its snapshots, each the state hash of the engine after one journal index. When the re-execution
 * has applied that command, its own state hash must be the same; the last checkpoint found equal bounds where a
 * divergence can have started.
 */
final class Checkpoints {
    private final Path dir;
    /** Snapshot journal indices still ahead of the run, oldest first. */
    private final List<Long> ahead;
    private int next;
    int equal;
    private long lastEqual = -1;
    /** What the last equal checkpoint was: a snapshot's file name, or the result's state hash. */
    private String lastEqualWhat;

    /** The snapshots in dir taken after journal index {@code after} (-1: all). */
    Checkpoints(final Path dir, final long after) {
        this.dir = dir;
        final List<Long> all = Files.isDirectory(dir) ? new ArrayList<>(SnapshotFiles.indices(dir)) : new ArrayList<>();
        Collections.reverse(all);
        all.removeIf(index -> index <= after);
        this.ahead = all;
    }

    /**
     * After the command at journalIndex was applied: compares the state at a checkpoint there. Returns
     * false (having printed both hashes) when the state differs; a snapshot that cannot be read is a note, not a checkpoint.
     */
    boolean check(final long journalIndex, final MatchingEngine engine, final PrintStream out) {
        while (next < ahead.size() && ahead.get(next) < journalIndex) {
            next++; // its command was never answered by this run's events (a gap is reported elsewhere)
        }
        if (next == ahead.size() || ahead.get(next) != journalIndex) {
            return true;
        }
        next++;
        final long recorded;
        try {
            recorded = MatchingEngine.stateHashOf(Files.readAllBytes(dir.resolve(SnapshotFiles.name(journalIndex))));
        } catch (final IOException | RuntimeException e) {
            out.println("note: checkpoint " + SnapshotFiles.name(journalIndex) + " not compared: " + e.getMessage());
            return true;
        }
        final long now = engine.stateHash();
        if (now != recorded) {
            out.printf("MISMATCH: the state after journal index 0x%x differs from the engine's snapshot of it (state hash %x,"
                + " snapshot %x) although every result up to it was equal%n", journalIndex, now, recorded);
            sayWhere(out);
            return false;
        }
        equal++;
        lastEqual = journalIndex;
        lastEqualWhat = SnapshotFiles.name(journalIndex);
        return true;
    }

    /**
     * After the command at journalIndex was applied, whose recorded result carries the engine's state hash then:
     * false (having printed both hashes) when the re-executed state differs.
     */
    boolean checkRecorded(final long journalIndex, final long recorded, final MatchingEngine engine, final PrintStream out) {
        final long now = engine.stateHash();
        if (now != recorded) {
            out.printf("MISMATCH: the state after journal index 0x%x differs from the state hash the engine recorded in its result"
                + " (state hash %x, recorded %x) although every result up to it was equal%n", journalIndex, now, recorded);
            sayWhere(out);
            return false;
        }
        equal++;
        lastEqual = journalIndex;
        lastEqualWhat = "the state hash in its result";
        return true;
    }

    /** Where a difference lies relative to the checkpoints: after the last one found equal. */
    void sayWhere(final PrintStream out) {
        out.println(lastEqual < 0 ? "checkpoints: none passed with an equal state before this point"
            : String.format("checkpoints: %d equal; the state was still equal after journal index 0x%x (%s)", equal, lastEqual,
            lastEqualWhat));
    }
}
