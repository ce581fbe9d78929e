package io.chronex.replay.audit;

import io.chronex.engine.MatchingEngine;
import io.chronex.queues.SnapshotFiles;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Verify's checkpoints in one part of the journal: the state hashes the engine recorded in its results (every
 * {@code --checkpoint-every} commands) and the snapshots there (the engine's, and those the audit tools kept),
 * each the state hash of the engine after one journal index. When the re-execution has applied that command, its
 * own state hash must be the same; the last checkpoint found equal bounds where a divergence can have started.
 */
final class Checkpoints {
    /** The snapshots inside this part, by the journal index they were taken after. */
    private final NavigableMap<Long, Path> snapshots;
    /** What each snapshot must agree with to be a checkpoint (its name, the configuration, the journal). */
    private final SnapshotFiles.Expect expect;
    /**
     * The journal index of the next snapshot ahead (Long.MAX_VALUE: none): {@link #check} runs for every result, and a
     * comparison there costs less than a map lookup with its boxed key.
     */
    private long nextAt;
    int equal;
    long lastEqual = -1;
    /** What the last equal checkpoint was: a snapshot's file, or the result's state hash. */
    String lastEqualWhat;

    /**
     * The checkpoints among {@code snapshots} after journal index {@code after} (-1: from the start) and before
     * {@code before} (where a part ends, its end is compared as the next part's start: {@link #checkSnapshot}).
     */
    Checkpoints(final NavigableMap<Long, Path> snapshots, final long after, final long before, final SnapshotFiles.Expect expect) {
        this.expect = expect;
        this.snapshots = snapshots.subMap(after, false, before, false);
        this.nextAt = this.snapshots.isEmpty() ? Long.MAX_VALUE : this.snapshots.firstKey();
    }

    /**
     * Every snapshot in the given directories (those that exist), by journal index; where two directories have
     * one of the same index, the first directory's.
     */
    static NavigableMap<Long, Path> snapshots(final Path... dirs) {
        final NavigableMap<Long, Path> all = new TreeMap<>();
        for (final Path dir : dirs) {
            if (Files.isDirectory(dir)) {
                for (final long index : SnapshotFiles.indices(dir)) {
                    all.putIfAbsent(index, dir.resolve(SnapshotFiles.name(index)));
                }
            }
        }
        return all;
    }

    /**
     * After the command at journalIndex was applied: compares the state with a snapshot taken there, if there is
     * one. Returns false (having printed both hashes) when the state differs; a snapshot that cannot be read, or that
     * does not agree with its name, the configuration or the journal, is a note, not a checkpoint.
     */
    boolean check(final long journalIndex, final MatchingEngine engine, final PrintStream out) {
        if (journalIndex < nextAt) {
            return true;
        }
        final Path file = snapshots.get(journalIndex); // null when its command was never answered (a gap, reported elsewhere)
        final Long later = snapshots.higherKey(journalIndex);
        nextAt = later == null ? Long.MAX_VALUE : later;
        if (file == null) {
            return true;
        }
        final long recorded;
        try {
            recorded = MatchingEngine.stateHashOf(SnapshotFiles.read(file, expect));
        } catch (final IOException | RuntimeException e) {
            out.println("note: checkpoint " + file + " not compared: " + e.getMessage());
            return true;
        }
        return checkSnapshot(journalIndex, file.getParent().getFileName() + "/" + file.getFileName(), recorded, engine, out);
    }

    /**
     * After the command at journalIndex was applied: compares the state with the state hash of the snapshot
     * {@code name} (its directory and file name) taken there; false (having printed both) when they differ.
     */
    boolean checkSnapshot(final long journalIndex, final String name, final long recorded, final MatchingEngine engine,
                          final PrintStream out) {
        final long now = engine.stateHash();
        if (now != recorded) {
            out.printf("MISMATCH: the state after journal index 0x%x differs from the snapshot %s of it (state hash %x, snapshot %x)"
                + " although every result up to it was equal%s%n", journalIndex, name, now, recorded,
                name.startsWith("snapshots/") ? "" : "; that snapshot was kept by an earlier audit run, not written by the engine:"
                    + " if it was damaged, delete it (or DIR/audit-index) and verify again");
            return false;
        }
        passed(journalIndex, name);
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
            return false;
        }
        passed(journalIndex, "the state hash in its result");
        return true;
    }

    private void passed(final long journalIndex, final String what) {
        equal++;
        lastEqual = journalIndex;
        lastEqualWhat = what;
    }

    /** Where a difference lies relative to the checkpoints: after the last one found equal ({@code lastEqual} -1: none). */
    static void sayWhere(final PrintStream out, final int equal, final long lastEqual, final String what) {
        out.println(lastEqual < 0 ? "checkpoints: none passed with an equal state before this point"
            : String.format("checkpoints: %d equal; the state was still equal after journal index 0x%x (%s)", equal, lastEqual, what));
    }
}
