package io.chronex.queues;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Moves whole queue cycle files from a data directory into an archive so that a kill -9 at any moment leaves each one
 * either in place or complete in the archive: copied (optionally gzip-compressed) to a {@code .partial} file, forced,
 * read back and checked against the original's SHA-256, renamed, listed in the archive's manifest and the data
 * directory's {@link ArchivedCycles} (both written whole), and only then is the original deleted. A run interrupted
 * after the listing finishes at the next run ({@link #finishInterrupted}); one interrupted before it leaves the
 * original listed nowhere and in place, to be archived again. Which cycles may go is the caller's decision.
 */
public final class CycleArchive {
    private static final String PARTIAL = ".partial";
    private static final int BUFFER = 1 << 16;

    /** The steps of a move, in order: where a test stops one dead, as a kill -9 would. */
    public enum Step { COPIED, STORED, IN_MANIFEST, LISTED, DELETED }

    private final Path root;
    private final Path archive;
    private final java.util.function.Consumer<Step> after;
    private ArchivedCycles inData;
    private ArchivedCycles inArchive;

    /**
     * An archive at {@code archive} for the data directory {@code root}. @throws IllegalStateException when the archive
     * already serves another data directory, or the data directory already archives elsewhere
     */
    public CycleArchive(final Path root, final Path archive) {
        this(root, archive, step -> { });
    }

    /** As above, {@code after} told of each step of a move as it is done (tests stop there). */
    public CycleArchive(final Path root, final Path archive, final java.util.function.Consumer<Step> after) {
        this.root = root;
        this.archive = archive;
        this.after = after;
        this.inData = ArchivedCycles.ofDataDirectory(root);
        this.inArchive = ArchivedCycles.ofArchive(archive);
        if (inData.other() != null && !inData.isEmpty() && !inData.other().equals(archive)) {
            throw new IllegalStateException(root + " already archives to " + inData.other() + " (" + ArchivedCycles.FILE
                + "): give --to " + inData.other() + ", one data directory keeps one archive");
        }
        if (inArchive.other() != null && !inArchive.isEmpty() && !inArchive.other().equals(root)) {
            throw new IllegalStateException(archive + " is the archive of another data directory, " + inArchive.other()
                + ": its cycles would share file names with this one's");
        }
    }

    /** What the data directory's list says is archived. */
    public ArchivedCycles archived() {
        return inData;
    }

    /**
     * Finishes what an interrupted run left: deletes {@code .partial} copies, and deletes each original still in place
     * whose archived copy is listed and checks. Returns the number of originals deleted.
     */
    public int finishInterrupted() throws IOException {
        for (final String queue : ArchivedCycles.QUEUES) {
            final Path dir = archive.resolve(queue);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (final Path partial : files.filter(f -> f.getFileName().toString().endsWith(PARTIAL)).toList()) {
                        Files.delete(partial);
                    }
                }
            }
        }
        int finished = 0;
        for (final ArchivedCycles.Cycle cycle : inData.cycles()) {
            final Path original = root.resolve(cycle.queue()).resolve(cycle.file());
            if (Files.exists(original)) {
                check(archive.resolve(cycle.queue()).resolve(cycle.stored()), cycle);
                deleteOriginal(original);
                finished++;
            }
        }
        return finished;
    }

    /** Moves one cycle file of a queue into the archive; returns what was listed. */
    public ArchivedCycles.Cycle move(final String queue, final String file, final boolean compress) throws IOException {
        final Path original = root.resolve(queue).resolve(file);
        final Path dir = Files.createDirectories(archive.resolve(queue));
        final String storedName = file + (compress ? ".gz" : "");
        final Path stored = dir.resolve(storedName);
        final Path partial = dir.resolve(storedName + PARTIAL);
        final MessageDigest digest = HistoryView.sha256();
        final long bytes;
        Files.deleteIfExists(partial);
        if (compress) {
            try (InputStream in = new DigestInputStream(Files.newInputStream(original), digest);
                 OutputStream out = new GZIPOutputStream(Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.WRITE), BUFFER)) {
                bytes = in.transferTo(out);
            }
        } else {
            // Holes kept: a day file is mostly preallocated zeros, which a plain copy would write out in full.
            try (InputStream in = Files.newInputStream(original)) {
                bytes = HistoryView.writeSparse(in, partial, digest);
            }
        }
        force(partial);
        final ArchivedCycles.Cycle cycle = new ArchivedCycles.Cycle(queue, file, storedName, bytes,
            HexFormat.of().formatHex(digest.digest()));
        after.accept(Step.COPIED);
        check(partial, cycle);
        Files.move(partial, stored, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        force(dir);
        after.accept(Step.STORED);
        // Listed in the archive before the data directory: a cycle the data directory lists is always in the manifest.
        inArchive = inArchive.naming(root).with(cycle);
        inArchive.writeToArchive(archive);
        force(archive);
        after.accept(Step.IN_MANIFEST);
        inData = inData.naming(archive).with(cycle);
        inData.writeToDataDirectory(root);
        force(root);
        after.accept(Step.LISTED);
        deleteOriginal(original);
        after.accept(Step.DELETED);
        return cycle;
    }

    /** The stored copy read back (unpacked when compressed) must be the original: its length and SHA-256. */
    private static void check(final Path stored, final ArchivedCycles.Cycle cycle) throws IOException {
        final MessageDigest digest = HistoryView.sha256();
        final long length;
        try (InputStream raw = Files.newInputStream(stored);
             InputStream in = cycle.compressed() ? new java.util.zip.GZIPInputStream(raw, BUFFER) : raw;
             DigestInputStream read = new DigestInputStream(in, digest)) {
            length = read.transferTo(OutputStream.nullOutputStream());
        }
        final String sha = HexFormat.of().formatHex(digest.digest());
        if (length != cycle.bytes() || !sha.equals(cycle.sha256())) {
            throw new IOException(stored + " read back as " + length + " bytes with SHA-256 " + sha + ", not the " + cycle.bytes()
                + " bytes " + cycle.sha256() + " of " + cycle.queue() + "/" + cycle.file() + ": the original stays in place");
        }
    }

    private void deleteOriginal(final Path original) throws IOException {
        Files.deleteIfExists(original);
        force(original.getParent());
    }

    private static void force(final Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
