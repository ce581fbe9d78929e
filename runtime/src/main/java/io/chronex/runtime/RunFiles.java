package io.chronex.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;

/**
 * A process's pid file and log under the data directory ({@code NAME.pid}, {@code NAME.log}), so
 * scripts and people can find and stop what is running. Log lines also go to standard output. The
 * pid file is removed at a clean stop; one left behind names a process that died.
 */
public final class RunFiles {
    private final Path pidFile;
    private final PrintStream logFile;

    private RunFiles(final Path pidFile, final PrintStream logFile) {
        this.pidFile = pidFile;
        this.logFile = logFile;
    }

    /**
     * Writes DIR/NAME.pid and opens DIR/NAME.log for appending.
     *
     * @throws IllegalStateException when the pid file names a process that is still alive
     */
    public static RunFiles start(final Path dir, final String name) {
        final Path pid = dir.resolve(name + ".pid");
        try {
            Files.createDirectories(dir);
            if (Files.exists(pid)) {
                final String text = Files.readString(pid).trim();
                try {
                    final long other = Long.parseLong(text);
                    // A process killed a moment ago can linger as a zombie that still counts as
                    // alive; it has no command any more, so only a process with one is running.
                    if (ProcessHandle.of(other).filter(ProcessHandle::isAlive).flatMap(p -> p.info().command()).isPresent()) {
                        throw new IllegalStateException(pid + " says process " + other + " is running on this data directory;"
                            + " stop it first (kill " + other + ")");
                    }
                } catch (final NumberFormatException e) {
                    // a damaged pid file: replaced below
                }
            }
            Files.writeString(pid, ProcessHandle.current().pid() + "\n");
            final PrintStream log = new PrintStream(Files.newOutputStream(dir.resolve(name + ".log"), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND), true, StandardCharsets.UTF_8);
            return new RunFiles(pid, log);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + pid + ": " + e.getMessage(), e);
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

    /** Removes the pid file and closes the log (a clean stop). */
    public void stop() {
        logFile.close();
        try {
            Files.deleteIfExists(pidFile);
        } catch (final IOException ignored) {
            // nothing more to do at exit
        }
    }
}
