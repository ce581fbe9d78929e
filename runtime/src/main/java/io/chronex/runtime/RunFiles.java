package io.chronex.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;

/**
 * A process's lock, pid file and log under the data directory ({@code NAME.lock}, {@code NAME.pid},
 * {@code NAME.log}). The lock is an OS file lock held for the life of the process, so two processes
 * of one role on one directory cannot both run, whether started together or after a kill -9 (the OS
 * drops the lock of a dead process; a pid file proves nothing). The pid file tells scripts and people
 * what is running; log lines also go to standard output.
 */
public final class RunFiles {
    private final Path pidFile;
    private final PrintStream logFile;
    private final FileChannel lockFile;

    private RunFiles(final Path pidFile, final PrintStream logFile, final FileChannel lockFile) {
        this.pidFile = pidFile;
        this.logFile = logFile;
        this.lockFile = lockFile;
    }

    /**
     * Takes DIR/NAME.lock, writes DIR/NAME.pid and opens DIR/NAME.log for appending.
     *
     * @throws IllegalStateException when another process (or this one) holds the lock
     */
    public static RunFiles start(final Path dir, final String name) {
        final Path pid = dir.resolve(name + ".pid");
        try {
            Files.createDirectories(dir);
            final FileChannel lockFile = FileChannel.open(dir.resolve(name + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (!tryLock(lockFile)) {
                lockFile.close();
                throw new IllegalStateException("another " + name + " is running on " + dir + holder(pid) + "; stop it first");
            }
            Files.writeString(pid, ProcessHandle.current().pid() + "\n");
            final PrintStream log = new PrintStream(Files.newOutputStream(dir.resolve(name + ".log"), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND), true, StandardCharsets.UTF_8);
            return new RunFiles(pid, log, lockFile);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + pid + ": " + e.getMessage(), e);
        }
    }

    /** The lock is held until this process stops or dies; the JVM refuses to take it twice. */
    private static boolean tryLock(final FileChannel lockFile) throws IOException {
        try {
            return lockFile.tryLock() != null;
        } catch (final OverlappingFileLockException e) {
            return false;
        }
    }

    /** " (pid N)" from the pid file, when it names one. */
    private static String holder(final Path pid) {
        try {
            final String text = Files.readString(pid).trim();
            return text.isEmpty() ? "" : " (pid " + text + ", " + pid.getFileName() + ")";
        } catch (final IOException e) {
            return "";
        }
    }

    public void log(final String format, final Object... args) {
        final String line = Instant.now() + " " + (args.length == 0 ? format : String.format(Locale.ROOT, format, args));
        System.out.println(line);
        System.out.flush();
        logFile.println(line);
    }

    /** To the log file only (for text already shown on the console). */
    public void logToFile(final String line) {
        logFile.println(Instant.now() + " " + line);
    }

    /** Removes the pid file, closes the log and lets go of the lock (a clean stop). */
    public void stop() {
        logFile.close();
        try {
            Files.deleteIfExists(pidFile);
            lockFile.close();
        } catch (final IOException ignored) {
            // nothing more to do at exit; the OS drops the lock with the process
        }
    }
}
