package io.chronex.queues;

import io.chronex.runtime.Args;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * A data directory's whole history for the read tools (audit, journal summary): when {@code bin/admin archive} moved past
 * cycles away, a temporary directory is assembled holding links to every live cycle file and to every archived one (a
 * compressed one unpacked there, its SHA-256 checked against the list), with the rest of the data directory linked in, and
 * opened read-only as a data directory of its own. Chronicle's indices name the cycle, so an index means the same excerpt
 * in the view as in the live queue and in the archive. Nothing is written to the data directory or the archive; closing
 * the view deletes the temporary directory. Without archived cycles the view is the data directory itself.
 */
public final class HistoryView implements AutoCloseable {
    private static final int BLOCK = 1 << 16;

    private final DataDirectory data;
    private final Path temporary;
    /** Shared on {@link ArchivedCycles#LOCK} for the view's life, so bin/admin archive cannot delete a day it reads; or null. */
    private final FileLock lock;

    private HistoryView(final DataDirectory data, final Path temporary, final FileLock lock) {
        this.data = data;
        this.temporary = temporary;
        this.lock = lock;
    }

    /**
     * The history of the data directory {@code dir}: a usage error when it is not one, or when a cycle its list says is
     * archived cannot be found or does not check.
     */
    public static HistoryView open(final Path dir) {
        final DataDirectory live = DataDirectory.openReadOnly(dir);
        // Taken before the list is read: a day listed and deleted between the list and the directory would be in neither, and
        // Chronicle passes over a missing day without a word.
        final FileLock lock = shareArchiveLock(live.root());
        final ArchivedCycles archived;
        try {
            archived = ArchivedCycles.ofDataDirectory(live.root());
        } catch (final IllegalStateException e) {
            release(lock);
            throw new Args.UsageException(e.getMessage());
        }
        if (archived.isEmpty()) {
            return new HistoryView(live, null, lock);
        }
        Path temporary = null;
        try {
            temporary = Files.createTempDirectory("chronex-history-");
            assemble(live.root(), archived, temporary);
            return new HistoryView(DataDirectory.view(temporary, live.root()), temporary, lock);
        } catch (final IOException | RuntimeException e) {
            deleteQuietly(temporary);
            release(lock);
            if (e instanceof Args.UsageException usage) {
                throw usage;
            }
            throw new UncheckedIOException("cannot assemble the history of " + live.root() + " with its archive "
                + archived.other() + ": " + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** The history as a read-only data directory. */
    public DataDirectory data() {
        return data;
    }

    /** Whether archived cycles are part of it. */
    public boolean includesArchive() {
        return temporary != null;
    }

    @Override
    public void close() {
        deleteQuietly(temporary);
        release(lock);
    }

    /**
     * A shared lock on the data directory's archive lock, or null where none can be had (no such file: a directory no writer
     * of this build has opened, which nothing has archived; or this JVM holds it already, for another view). Refused while
     * bin/admin archive holds it.
     */
    private static FileLock shareArchiveLock(final Path root) {
        final Path file = root.resolve(ArchivedCycles.LOCK);
        final FileChannel channel;
        try {
            // Opened, never created: a reader creates nothing (writers make the file when they open the directory).
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (final IOException e) {
            return null;
        }
        try {
            final FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
            if (lock == null) {
                channel.close();
                throw new Args.UsageException("bin/admin archive is moving past days of " + root + " now: run this again when it has"
                    + " finished");
            }
            return lock;
        } catch (final OverlappingFileLockException | IOException e) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // nothing held
            }
            return null;
        }
    }

    private static void release(final FileLock lock) {
        if (lock == null) {
            return;
        }
        try {
            lock.channel().close();
        } catch (final IOException ignored) {
            // the lock goes with the process anyway
        }
    }

    private static void assemble(final Path root, final ArchivedCycles archived, final Path view) throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            for (final Path entry : entries.toList()) {
                final String name = entry.getFileName().toString();
                if (name.equals(DataDirectory.MARKER)) {
                    Files.copy(entry, view.resolve(name));
                } else if (!ArchivedCycles.QUEUES.contains(name)) {
                    // Snapshots, the audit's own indexes and the rest: the data directory's own, read and kept as they are.
                    Files.createSymbolicLink(view.resolve(name), entry);
                }
            }
        }
        for (final String queue : ArchivedCycles.QUEUES) {
            final Path into = Files.createDirectories(view.resolve(queue));
            final Path liveQueue = root.resolve(queue);
            if (Files.isDirectory(liveQueue)) {
                try (Stream<Path> files = Files.list(liveQueue)) {
                    for (final Path file : files.filter(f -> ArchivedCycles.cycleOf(f.getFileName().toString()).isPresent()).toList()) {
                        Files.createSymbolicLink(into.resolve(file.getFileName()), file);
                    }
                }
            }
            for (final ArchivedCycles.Cycle cycle : archived.cycles()) {
                if (cycle.queue().equals(queue) && !Files.exists(into.resolve(cycle.file()), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    place(archived.other(), cycle, into.resolve(cycle.file()));
                }
            }
        }
    }

    /** One archived cycle into the view: linked when stored as it was, unpacked and checked when compressed. */
    private static void place(final Path archive, final ArchivedCycles.Cycle cycle, final Path target) throws IOException {
        final Path stored = archive.resolve(cycle.queue()).resolve(cycle.stored());
        if (!Files.isRegularFile(stored)) {
            throw new Args.UsageException(cycle.queue() + " cycle " + cycle.file() + " was archived to " + stored + ", which is not there:"
                + " put the archive back where " + ArchivedCycles.FILE + " says (" + archive + ") to read that time");
        }
        if (!cycle.compressed()) {
            if (Files.size(stored) != cycle.bytes()) {
                throw new Args.UsageException(stored + " has " + Files.size(stored) + " bytes, the archive recorded " + cycle.bytes());
            }
            Files.createSymbolicLink(target, stored);
            return;
        }
        final String sha;
        try {
            sha = unpack(stored, target);
        } catch (final IOException e) {
            throw new Args.UsageException(stored + " does not unpack (" + e.getMessage() + "): the archive is damaged; restore "
                + cycle.queue() + "/" + cycle.file() + " from a backup of the archive");
        }
        if (!sha.equals(cycle.sha256()) || Files.size(target) != cycle.bytes()) {
            throw new Args.UsageException(stored + " does not unpack to the cycle archived (SHA-256 " + sha + ", recorded "
                + cycle.sha256() + "): the archive is damaged");
        }
    }

    /** Unpacks a gzip file, leaving runs of zeros as holes (a cycle file is mostly preallocated zeros); returns the SHA-256. */
    static String unpack(final Path gzip, final Path target) throws IOException {
        final MessageDigest digest = sha256();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gzip), BLOCK)) {
            writeSparse(in, target, digest);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Writes what {@code in} gives to {@code target} (created, not there before), leaving blocks of zeros as holes: a day file
     * is mostly Chronicle's preallocated zeros, which would otherwise take their whole size on disk. Every byte goes through
     * {@code digest}; returns the length written.
     */
    static long writeSparse(final InputStream in, final Path target, final MessageDigest digest) throws IOException {
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            final byte[] block = new byte[BLOCK];
            long position = 0;
            while (true) {
                final int n = in.readNBytes(block, 0, BLOCK);
                if (n == 0) {
                    break;
                }
                digest.update(block, 0, n);
                if (!allZero(block, n)) {
                    final ByteBuffer buffer = ByteBuffer.wrap(block, 0, n);
                    while (buffer.hasRemaining()) {
                        out.write(buffer, position + buffer.position());
                    }
                }
                position += n;
            }
            out.truncate(position);
            if (out.size() < position) {
                out.write(ByteBuffer.allocate(1), position - 1); // a file that ends in zeros still has its whole length
            }
            return position;
        }
    }

    private static boolean allZero(final byte[] block, final int n) {
        for (int i = 0; i < n; i++) {
            if (block[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** SHA-256, which every JVM has. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(final Path dir) {
        if (dir == null || !Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            // Links are deleted, never followed: what they point at is the data directory's and the archive's.
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path d, final IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (final IOException e) {
            System.err.println("warning: cannot delete the temporary history " + dir + ": " + e.getMessage());
        }
    }
}
