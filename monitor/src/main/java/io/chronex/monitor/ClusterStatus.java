package io.chronex.monitor;

import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import io.chronex.runtime.StopSignal;
import io.chronex.runtime.Tool;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** bin/cluster-status: each member's role, term and commit position, asked of the member over the network (or read here with --local). */
public final class ClusterStatus {
    static final String USAGE = """
        Usage: bin/cluster-status --cluster FILE [--once] [--watch SECONDS] [--timeout-ms MS] [--local]

        Prints one line per member of the cluster FILE describes (config/cluster.yaml), then a RESULT line:

          member ID  HOST  up  ROLE  state S  election E  term T  commit P  lag L  elections N  snapshots M
          RESULT leader=ID|none members=UP term=T commit_position=P

        Each member is asked over the network: GET /status on its host and status port (basePort+5 in FILE),
        which the member answers from its own Aeron counters. All members are asked at once; one that does not
        answer within the timeout (connect, then the whole answer) is "down (no answer from HOST:PORT: why)",
        one that answers something else "down (bad answer from HOST:PORT: why)". ROLE is leader, follower or
        candidate; S the consensus module's state (ACTIVE, SUSPENDED, SNAPSHOT, ...); E the election's state
        (CLOSED when none is running); T the leadership term; P the commit position (bytes of the log); L the
        leader's commit position less this member's. Asking changes nothing: a member answers on a thread of
        its own, from volatile reads of its counters, so asking never slows the member.

        --local reads instead, as before, each member's Aeron media driver files on this host (its cnc.dat under
        FILE's aeronDir, node-ID): up when the driver's process lives and its heartbeat is under 10 s old; a member
        with no directory here is "not running on this host". For when the status port cannot be reached (a
        firewall) on a host that runs the members; it sees no member of another host.

          --cluster FILE     the members, their hosts and ports, and aeronDir (config/cluster.yaml)
          --once             print once and exit (the default)
          --watch SECONDS    print again every SECONDS (1..3600) until stopped (Ctrl-C)
          --timeout-ms MS    how long to wait for a member to accept, and again for its answer (default 500,
                             50..10000)
          --local            read this host's media driver files instead of asking the members
          --help             this text

        Exit 0 when a member that is up leads, 1 when none does (RESULT leader=none), 2 for a wrong command line
        or cluster file.
        """;

    private ClusterStatus() {
    }

    public static void main(final String[] argv) {
        Tool.run("cluster-status", USAGE, () -> run(argv, System.out));
    }

    /** Parses the command line and prints; the exit code of the last view (for tests: 0 with a leader, 1 without). */
    public static int run(final String[] argv, final PrintStream out) throws Exception {
        final Args args = Args.parse(argv, Set.of("--cluster", "--watch", "--timeout-ms"), Set.of("--once", "--local"), 0);
        final long watch = args.number("--watch", 0, 1, 3600);
        if (watch > 0 && args.flag("--once")) {
            throw new Args.UsageException("--once prints once; --watch prints every N seconds: give one of them");
        }
        final int timeoutMs = args.intNumber("--timeout-ms", NetClusterView.DEFAULT_TIMEOUT_MS, 50, 10_000);
        if (args.flag("--local") && args.string("--timeout-ms", null) != null) {
            throw new Args.UsageException("--timeout-ms is for asking the members; --local reads this host's files: give one of them");
        }
        final ClusterConfig config = ClusterConfig.load(args.readableFile("--cluster", "config/cluster.yaml"));
        final ClusterReader view = args.flag("--local") ? new ClusterView(config) : new NetClusterView(config, timeoutMs);
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
