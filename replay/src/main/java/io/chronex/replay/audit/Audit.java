package io.chronex.replay.audit;

import io.chronex.api.EngineConfig;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EngineConfigFile;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/** bin/audit SUBCOMMAND: questions answered from a data directory's journals, each ending with one RESULT line. */
public final class Audit {
    static final String USAGE = """
        Usage: bin/audit SUBCOMMAND [options]     (bin/audit SUBCOMMAND --help for one)

        Answers questions from a data directory's journals, reading only (nothing is written there).
        Each subcommand ends its output with one machine-readable line: RESULT key=value ...

          verify --data-dir DIR --config FILE
              re-executes the whole journal through a fresh engine built from FILE and compares every
              result with the recorded one (every field but the timestamps); stops at the first
              difference, printing the command and both results. FILE must be the configuration DIR
              was started with (the engine pins it in DIR/snapshots/config.hash).
              RESULT verified=N mismatches=M first_mismatch_index=0x.. unanswered=K
              exit 0: all equal; 1: a difference; 2: a usage error (a wrong FILE among them)
        """;
    static final String VERIFY_USAGE = """
        Usage: bin/audit verify --data-dir DIR --config FILE

        Re-executes DIR's journal through a fresh engine built from FILE (the configuration DIR was
        started with: refused otherwise) and compares every result with the one recorded in DIR/events,
        byte for byte in the events' encoding with the recorded journal index and timestamps put back.
        Stops at the first difference and prints the command, the differing fields and both results.
        Commands journalled but not answered yet are counted (unanswered=), not verified.
          RESULT verified=N mismatches=M first_mismatch_index=0x.. unanswered=K
        Exit 0 when every result is equal, 1 at a difference, 2 on a usage error.
        """;

    private Audit() {
    }

    public static void main(final String[] argv) {
        System.exit(exitCode(argv, System.out));
    }

    /** The tool without leaving the JVM (tests): its exit code. */
    public static int exitCode(final String[] argv, final PrintStream out) {
        final String sub = argv.length == 0 ? "" : argv[0];
        final String[] rest = argv.length == 0 ? argv : Arrays.copyOfRange(argv, 1, argv.length);
        return switch (sub) {
            case "verify" -> Tool.exitCode("audit verify", VERIFY_USAGE, () -> verify(rest, out));
            case "-h", "--help" -> {
                out.print(USAGE);
                yield 0;
            }
            default -> Tool.exitCode("audit", USAGE, () -> {
                throw new Args.UsageException(sub.isEmpty() ? "name a subcommand (verify)" : "unknown subcommand '" + sub
                    + "' (verify is the one built so far)");
            });
        };
    }

    private static int verify(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--data-dir", "--config"), Set.of(), 0);
        final Path configFile = args.readableFile("--config", "config/engine.yaml");
        final EngineConfig config = EngineConfigFile.load(configFile);
        final DataDirectory data = DataDirectory.openReadOnly(Path.of(args.required("--data-dir", "data/demo-...")));
        Verify.checkPinned(data, config, configFile, out);
        final Verify.Outcome outcome = new Verify(config, out).run(data);
        final double seconds = outcome.nanos() / 1e9;
        out.printf(Locale.ROOT, "re-executed %,d commands in %.3f s (%.2f M commands/s, reading both queues)%n", outcome.verified()
            + outcome.mismatches(), seconds, (outcome.verified() + outcome.mismatches()) / Math.max(seconds, 1e-9) / 1e6);
        out.println(outcome.resultLine());
        return outcome.mismatches() == 0 ? 0 : 1;
    }
}
