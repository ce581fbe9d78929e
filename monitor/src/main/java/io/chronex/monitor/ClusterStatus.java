package io.chronex.monitor;

import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import io.chronex.runtime.StopSignal;
import io.chronex.runtime.Tool;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** bin/cluster-status: each member's role, term and commit position from its media driver's counters, read-only. */
public final class ClusterStatus {
    static final String USAGE = """
        Usage: bin/cluster-status --cluster FILE [--once] [--watch SECONDS]

        Prints one line per member of the cluster FILE describes (config/cluster.yaml), then a RESULT line:

          member ID  HOST  up  ROLE  state S  election E  term T  commit P  lag L  elections N  snapshots M
          RESULT leader=ID|none members=UP term=T commit_position=P

        read from each member's Aeron media driver on this host (its cnc.dat under FILE's aeronDir, node-ID):
        up when the driver's process lives and its heartbeat is under 10 s old; ROLE leader, follower or
        candidate; S the consensus module's state (ACTIVE, SUSPENDED, SNAPSHOT, ...); E the election's state
        (CLOSED when none is running); T the leadership term; P the commit position (bytes of the log); L the
        leader's commit position less this member's. A member with no directory here is "not running on
        this host". Nothing is written, locked or connected to: it works when the cluster does not.

          --cluster FILE   the members and aeronDir (config/cluster.yaml)
          --once           print once and exit (the default)
          --watch SECONDS  print again every SECONDS (1..3600) until stopped (Ctrl-C)
          --help           this text

        Exit 0 when a member up here leads, 1 when none does (RESULT leader=none), 2 for a wrong command line
        or cluster file.
        """;

    private ClusterStatus() {
    }

    public static void main(final String[] argv) {
        Tool.run("cluster-status", USAGE, () -> run(argv, System.out));
    }

    /** Parses the command line and prints; the exit code of the last view (for tests: 0 with a leader, 1 without). */
    public static int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--cluster", "--watch"), Set.of("--once"), 0);
        final long watch = args.number("--watch", 0, 1, 3600);
        if (watch > 0 && args.flag("--once")) {
            throw new Args.UsageException("--once prints once; --watch prints every N seconds: give one of them");
        }
        final ClusterView view = new ClusterView(ClusterConfig.load(args.readableFile("--cluster", "config/cluster.yaml")));
        if (watch == 0) {
            return print(view.read(), out);
        }
        final boolean terminal = System.console() != null && out == System.out;
        final StopSignal stop = StopSignal.register();
        do {
            out.print(terminal ? "\033[H\033[2J" : "\n");
            print(view.read(), out);
        } while (!stop.await(TimeUnit.SECONDS.toMillis(watch))); // Ctrl-C or SIGTERM ends the watch, exit 0
        return 0;
    }

    /** The members' lines and the RESULT line; 0 with a leader, 1 without. */
    static int print(final ClusterView.Snapshot snapshot, final PrintStream out) {
        out.print(render(snapshot));
        out.flush();
        return snapshot.leader() == null ? 1 : 0;
    }

    /** What {@link #print} prints. */
    static String render(final ClusterView.Snapshot snapshot) {
        final StringBuilder text = new StringBuilder(512);
        for (final ClusterView.Member m : snapshot.members()) {
            text.append(ClusterView.line(snapshot, m)).append('\n');
        }
        return text.append(ClusterView.result(snapshot)).append('\n').toString();
    }
}
