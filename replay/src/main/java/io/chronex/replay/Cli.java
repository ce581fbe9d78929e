package io.chronex.replay;

import io.chronex.queues.DataDirectory;

import java.nio.file.Path;

/** Argument helpers shared by the journal tools: every mistake ends with a reason and exit code 2. */
final class Cli {
    private Cli() {
    }

    static String value(final String[] args, final int index, final String tool) {
        if (index >= args.length) {
            fail(tool, args[index - 1] + " needs a value");
        }
        return args[index];
    }

    static long positive(final String[] args, final int index, final String tool) {
        final String value = value(args, index, tool);
        try {
            final long parsed = Long.parseLong(value);
            if (parsed < 1) {
                fail(tool, args[index - 1] + " must be positive, not " + value);
            }
            return parsed;
        } catch (final NumberFormatException e) {
            fail(tool, args[index - 1] + " needs a number, not '" + value + "'");
            return 0;
        }
    }

    static DataDirectory open(final Path dir, final String tool) {
        try {
            return DataDirectory.open(dir);
        } catch (final IllegalStateException e) {
            fail(tool, e.getMessage());
            return null;
        }
    }

    static void fail(final String tool, final String message) {
        System.err.println(tool + ": " + message);
        System.err.println("Try 'bin/" + tool + " --help'.");
        System.exit(2);
    }
}
