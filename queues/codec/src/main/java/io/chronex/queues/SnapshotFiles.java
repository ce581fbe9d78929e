package io.chronex.queues;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * How engine snapshots are named in a data directory's {@code snapshots/}: {@code snapshot-<journal
 * index, 16 hex digits>.bin}, the state after that command, and how every reader checks one ({@link #read}):
 * the file's {@link SnapshotEnvelope} must name the same index, the reader's configuration and the journal's
 * command there. The engine writes them; the monitor and audit tools find and check them by the same rule.
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

    /** Turns a snapshot's body (the engine's bytes inside the file's header) into a state; throws a RuntimeException for bad bytes. */
    @FunctionalInterface
    public interface Restorer<T> {
        T restore(byte[] snapshot);
    }

    /** A snapshot read back: the state, the journal index it was taken after, and its file. */
    public record Restored<T>(T state, long journalIndex, Path file) {
    }

    /**
     * What a snapshot file must agree with besides its own name: the configuration's hash ({@code configHash}; null
     * where the reader does not know it) and the commands journal ({@code commands}, opened by the caller; null where
     * the reader has none), whose command at the snapshot's index must be the one the snapshot was taken after.
     */
    public record Expect(Long configHash, SingleChronicleQueue commands) {
    }

    /**
     * The body of the snapshot {@code file} (named by {@link #name}), once its header is checked (see
     * {@link SnapshotEnvelope#open}) and found to agree with its name and with {@code expect}; an IOException, or an
     * IllegalArgumentException saying what differs. Every reader of snapshots comes through here, so a renamed file,
     * one from another run's journal or another configuration is never taken for what its name says.
     */
    public static byte[] read(final Path file, final Expect expect) throws IOException {
        final long named = indexOf(file.getFileName().toString());
        if (named < 0) {
            throw new IllegalArgumentException("not named like a snapshot (" + PREFIX + "<16 hex digits>" + SUFFIX + ")");
        }
        final byte[] bytes = Files.readAllBytes(file);
        final SnapshotEnvelope.Header header = SnapshotEnvelope.open(bytes);
        if (header.journalIndex() != named) {
            throw new IllegalArgumentException(String.format("its name says journal index 0x%x but it holds the state after 0x%x"
                + " (renamed?)", named, header.journalIndex()));
        }
        if (expect.configHash() != null && header.configHash() != expect.configHash()) {
            throw new IllegalArgumentException(String.format("it was taken under configuration hash %x, not this configuration's %x",
                header.configHash(), expect.configHash()));
        }
        if (expect.commands() != null) {
            final OptionalLong fingerprint = commandFingerprint(expect.commands(), named);
            if (fingerprint.isEmpty()) {
                throw new IllegalArgumentException(String.format("the commands journal has no command at journal index 0x%x", named));
            }
            if (fingerprint.getAsLong() != header.commandFingerprint()) {
                throw new IllegalArgumentException(String.format("the journal's command at 0x%x is not the one it was taken after"
                    + " (fingerprint %x, snapshot %x): a snapshot of another journal", named, fingerprint.getAsLong(),
                    header.commandFingerprint()));
            }
        }
        return Arrays.copyOfRange(bytes, SnapshotEnvelope.HEADER_BYTES, bytes.length);
    }

    /**
     * The {@link SnapshotEnvelope#fingerprint} of the journal's excerpt at {@code journalIndex}, or empty when there is
     * none. A tailer of its own, created and closed here, so that any thread may call it (one excerpt: cheap).
     */
    public static OptionalLong commandFingerprint(final SingleChronicleQueue commands, final long journalIndex) {
        try (ExcerptTailer tailer = commands.createTailer()) {
            if (!tailer.moveToIndex(journalIndex)) {
                return OptionalLong.empty();
            }
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent() || dc.index() != journalIndex) {
                    return OptionalLong.empty();
                }
                final Bytes<?> bytes = dc.wire().bytes();
                return OptionalLong.of(SnapshotEnvelope.fingerprint(bytes, bytes.readPosition(), (int) bytes.readRemaining()));
            }
        }
    }

    /** The configuration hash a data directory was pinned to by the engine's first start ({@link #CONFIG_HASH}), or null. */
    public static Long pinnedConfigHash(final Path snapshotsDir) {
        final Path file = snapshotsDir.resolve(CONFIG_HASH);
        try {
            return Long.parseUnsignedLong(Files.readString(file).trim(), 16);
        } catch (final IOException | NumberFormatException e) {
            return null;
        }
    }

    /**
     * The newest snapshot in {@code dir} taken at or before {@code journalIndex} that reads back cleanly and agrees
     * with its name and {@code expect} ({@link #read}), or null (none, or no directory). One that does not is reported
     * to {@code warn}, naming the file and what differs, and passed over for an older one: a damaged or misplaced
     * snapshot costs a longer replay, never a start or an answer.
     */
    public static <T> Restored<T> newestUpTo(final Path dir, final long journalIndex, final Restorer<T> restorer,
                                             final Expect expect, final Consumer<String> warn) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        for (final long index : indices(dir)) {
            if (index > journalIndex) {
                continue;
            }
            final Path file = dir.resolve(name(index));
            try {
                return new Restored<>(restorer.restore(read(file, expect)), index, file);
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
            files.mapToLong(p -> indexOf(p.getFileName().toString())).filter(index -> index >= 0).forEach(indices::add);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list snapshots in " + dir + ": " + e.getMessage(), e);
        }
        indices.sort(Comparator.reverseOrder());
        return indices;
    }

    /** The journal index a snapshot's file name gives, or -1 for a name not of that form. */
    private static long indexOf(final String name) {
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX) || name.length() != PREFIX.length() + 16 + SUFFIX.length()) {
            return -1;
        }
        try {
            final long index = Long.parseUnsignedLong(name.substring(PREFIX.length(), PREFIX.length() + 16), 16);
            return index < 0 ? -1 : index; // journal indices are never negative
        } catch (final NumberFormatException e) {
            return -1;
        }
    }
}
