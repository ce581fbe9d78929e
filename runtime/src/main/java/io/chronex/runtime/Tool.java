package io.chronex.runtime;

/**
 * How every bin/ tool's main ends: usage on --help (exit 0), "tool: reason" and a hint on a wrong
 * command line or a bad input file (exit 2), the body's own exit code otherwise.
 */
public final class Tool {
    private Tool() {
    }

    /** A tool's body: parses its arguments and runs; returns the exit code. */
    @FunctionalInterface
    public interface Body {
        int run() throws Exception;
    }

    /**
     * Runs {@code body} and exits the JVM with its code (Chronicle may leave background threads
     * behind, so a tool never relies on main returning).
     */
    public static void run(final String tool, final String usage, final Body body) {
        System.exit(exitCode(tool, usage, body));
    }

    /** As {@link #run} without exiting: the exit code (for tests). */
    public static int exitCode(final String tool, final String usage, final Body body) {
        try {
            return body.run();
        } catch (final Args.HelpRequested e) {
            System.out.print(usage);
            System.out.flush();
            return 0;
        } catch (final Args.UsageException | ConfigYaml.ConfigException e) {
            System.err.println(tool + ": " + e.getMessage());
            System.err.println("Try 'bin/" + tool + " --help'.");
            return 2;
        } catch (final Exception e) {
            System.err.println(tool + ": " + e);
            e.printStackTrace();
            return 1;
        }
    }
}
