package io.chronex.queues;

import java.nio.file.Path;

/** A child process for DataDirectoryConcurrencyTest: opens ARGS[0] as a data directory, says so, exits 0 (1 on failure). */
public final class OpenDataDirectoryMain {
    private OpenDataDirectoryMain() {
    }

    public static void main(final String[] args) {
        try {
            System.out.println("opened " + DataDirectory.open(Path.of(args[0])).root());
        } catch (final RuntimeException e) {
            System.out.println("failed: " + e);
            System.exit(1);
        }
    }
}
