package io.chronex.queues;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * How engine snapshots are named in a data directory's {@code snapshots/}: {@code snapshot-<journal
 * index, 16 hex digits>.bin}, the state after that command. The engine writes them; the monitor and
 * audit tools find them by the same rule.
 */
public final class SnapshotFiles {
    public static final String PREFIX = "snapshot-";
    public static final String SUFFIX = ".bin";
    /** Beside the snapshots: the hash of the configuration the directory was first started with (hex, one line). */
    public static final String CONFIG_HASH = "config.hash";

    private SnapshotFiles() {
    }

    /** The file name of the snapshot taken after the command at {@code journalIndex}. */
    public static String name(final long journalIndex) {
        return PREFIX + String.format("%016x", journalIndex) + SUFFIX;
    }

    /** Turns a snapshot's bytes into a state; throws IllegalArgumentException (or another RuntimeException) for bad bytes. */
    @FunctionalInterface
    public interface Restorer<T> {
        T restore(byte[] snapshot);
    }

    /** A snapshot read back: the state, the journal index it was taken after, and its file. */
    public record Restored<T>(T state, long journalIndex, Path file) {
    }

    /**
     * The newest snapshot in {@code dir} taken at or before {@code journalIndex} that reads back cleanly,
     * or null (none, or no directory). One that does not is reported to {@code warn} and passed over for
     * an older one: a damaged newest snapshot costs a longer replay, never a start or an answer.
     */
    public static <T> Restored<T> newestUpTo(final Path dir, final long journalIndex, final Restorer<T> restorer,
                                             final Consumer<String> warn) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        for (final long index : indices(dir)) {
            if (index > journalIndex) {
                continue;
            }
            final Path file = dir.resolve(name(index));
            try {
                return new Restored<>(restorer.restore(Files.readAllBytes(file)), index, file);
            } catch (final IOException | RuntimeException e) {
                warn.accept("skipping snapshot " + file + ": " + e.getMessage());
            }
        }
        return null;
    }

    /** Journal indices of the snapshots in {@code dir}, newest first; other files are passed over. */
    public static List<Long> indices(final Path dir) {
        final List<Long> indices = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith(PREFIX) && n.endsWith(SUFFIX) && n.length() == PREFIX.length() + 16 + SUFFIX.length())
                .forEach(n -> {
                    try {
                        indices.add(Long.parseUnsignedLong(n.substring(PREFIX.length(), PREFIX.length() + 16), 16));
                    } catch (final NumberFormatException ignored) {
                        // Not one of ours.
                    }
                });
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list snapshots in " + dir + ": " + e.getMessage(), e);
        }
        indices.sort(Comparator.reverseOrder());
        return indices;
    }
}
