package io.chronex.runtime;

/**
 * How every bin/ tool's main ends: usage on --help (exit 0), "tool: reason" and a hint on a wrong
 * command line or a bad input file (exit 2), "tool: reason" on a {@link Failure} (exit 1), the
 * body's own exit code otherwise.
 */
public final class Tool {
    private Tool() {
    }

    /**
     * The tool could not do its job for a reason it can state (a peer that does not answer, a
     * connection closed): "tool: reason" and exit 1, without the --help hint a usage error gets,
     * since the command line was not the problem.
     */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Failure(final String message) {
            super(message);
        }
    }

    /** The project's version from the jar's manifest (Implementation-Version), for start-up lines. */
    public static String version() {
        final String version = Tool.class.getPackage().getImplementationVersion();
        return version == null ? "(development build)" : version;
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
        } catch (final Failure e) {
            System.err.println(tool + ": " + e.getMessage());
            return 1;
        } catch (final Exception e) {
            System.err.println(tool + ": " + e);
            e.printStackTrace();
            return 1;
        }
    }
}
