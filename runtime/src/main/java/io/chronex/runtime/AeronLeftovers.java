package io.chronex.runtime;

import io.aeron.CncFileDescriptor;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.exceptions.ActiveDriverException;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Clears what a process killed with kill -9 left of Aeron's files, so that its restart serves at once: Aeron takes a media
 * driver directory or a mark file for a live process's until the heartbeat in it is 10 s old, and a restart would wait that
 * out. Needs aeron-client, an optional dependency of this module that only the processes running Aeron bring.
 */
public final class AeronLeftovers {
    /** What a mark file set aside is renamed to: NAME.previous, the last one only, kept for its error log. */
    public static final String SET_ASIDE_SUFFIX = ".previous";

    /** How long {@link #launchDriver} waits for a directory a live process holds. */
    private static final long DRIVER_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private AeronLeftovers() {
    }

    /**
     * Launches an embedded media driver in the context's directory, first removing it when a process that is gone left it
     * ({@link #clearDeadDriverDirectory}); while a live process holds it (another process given the same directory), waits up
     * to 30 s for it to go, saying so once, then throws {@link ActiveDriverException}. The context should not have
     * dirDeleteOnStart: that skips Aeron's check for a live driver, so a second process would wipe a running one's.
     */
    public static MediaDriver launchDriver(final MediaDriver.Context context, final String who, final Consumer<String> log) {
        final String dir = context.aeronDirectoryName();
        if (clearDeadDriverDirectory(Path.of(dir))) {
            log.accept(who + ": the media driver directory " + dir + " of a process that is gone removed");
        }
        final long deadline = System.nanoTime() + DRIVER_WAIT_NANOS;
        boolean said = false;
        while (true) {
            try {
                return MediaDriver.launchEmbedded(context.clone());
            } catch (final ActiveDriverException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                if (!said) {
                    log.accept(who + ": the media driver directory " + dir + " is in use by a live process; waiting up to 30 s");
                    said = true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            }
        }
    }

    /**
     * Deletes a media driver directory whose cnc file names a process that no longer runs; returns whether it did. A
     * directory of a live process (this one included), one without a whole cnc file, or one of another cnc version is left
     * to Aeron's own check.
     */
    public static boolean clearDeadDriverDirectory(final Path dir) {
        final File cnc = dir.resolve(CncFileDescriptor.CNC_FILE).toFile();
        if (!cnc.isFile() || cnc.length() < CncFileDescriptor.META_DATA_LENGTH) {
            return false;
        }
        final long pid;
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(cnc, "cnc");
        try {
            final UnsafeBuffer metaData = CncFileDescriptor.createMetaDataBuffer(mapped);
            if (metaData.getIntVolatile(CncFileDescriptor.cncVersionOffset(0)) != CncFileDescriptor.CNC_VERSION) {
                return false;
            }
            pid = CncFileDescriptor.pid(metaData);
        } finally {
            IoUtil.unmap(mapped);
        }
        if (pid <= 0 || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        IoUtil.delete(dir.toFile(), false);
        return true;
    }

    /**
     * Moves each existing file to NAME{@value #SET_ASIDE_SUFFIX}, replacing an older one; returns how many it moved. For Aeron's
     * mark files (archive, consensus module, service container), which hold only liveness and an error log, and only while
     * the caller holds its role's {@link RunFiles} lock on the directory they belong to: then no live process uses them.
     */
    public static int setAsideMarkFiles(final Path... files) {
        int moved = 0;
        for (final Path file : files) {
            if (Files.isRegularFile(file)) {
                try {
                    Files.move(file, file.resolveSibling(file.getFileName() + SET_ASIDE_SUFFIX), StandardCopyOption.REPLACE_EXISTING);
                } catch (final IOException e) {
                    throw new UncheckedIOException("cannot move " + file + " aside: " + e.getMessage(), e);
                }
                moved++;
            }
        }
        return moved;
    }
}
