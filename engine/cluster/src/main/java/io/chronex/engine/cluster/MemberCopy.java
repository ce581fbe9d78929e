package io.chronex.engine.cluster;

import io.aeron.archive.ArchiveMarkFile;
import io.aeron.cluster.RecordingLog;
import io.chronex.queues.DataDirectory;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * bin/cluster-copy-member: seeds a replacement member's data directory with a copy of another member's Aeron log (the
 * archive and the consensus module's recording log), so that it replays the log from its own disk instead of copying it
 * over the network from the leader. The chronex journals are not copied: the replacement writes them again from the log.
 */
public final class MemberCopy {
    static final String USAGE = """
        Usage: bin/cluster-copy-member --from DIR --to DIR --id N

        Seeds the data directory of a replacement for member N (one whose disk was lost) from the data directory
        DIR of another member of the same cluster, which may be running: copies its chronex-data.properties and
        Aeron's files under DIR/cluster (the recording log, the node state, the archive's catalog, then the log's
        segment files, in that order, so the segments are never shorter than the catalog says), and writes
        TO/cluster/member with N. It leaves out what belongs to the running process (mark files, locks, the pid
        and log files) and the chronex queues (commands, events, snapshots, ledger): started with
        bin/cluster-node --id N --data-dir TO, the replacement replays the copied log into new queues of its
        own, then catches up with the leader from where the copy ended, which is what saves copying the
        whole log over the network. A member on another host: run this on the host of DIR, then move TO there
        whole (rsync -a, scp -r) before starting it.

          --from DIR   a member's data directory (bin/cluster-node --data-dir)
          --to DIR     the replacement's data directory: must not exist, or be empty
          --id N       the member id the replacement runs as (bin/cluster-node --id)
          --help       this text

        Ends with RESULT files=<n> bytes=<n>. Exit 0 when copied, 2 on a wrong command line or a directory
        that is not a member's or not empty (nothing is written then).
        """;

    /** Aeron 1.51's archive.catalog (Archive.Configuration.CATALOG_FILE_NAME, which is not public). */
    private static final String CATALOG = "archive.catalog";
    /** The files of a running process, never copied: Aeron's mark files, its lock files, the run files. */
    private static final Set<String> LEFT_OUT = Set.of(ArchiveMarkFile.FILENAME, "engine.lock", "engine.pid", "engine.log");

    private MemberCopy() {
    }

    public static void main(final String[] argv) {
        Tool.run("cluster-copy-member", USAGE, () -> run(argv));
    }

    /** {@link #main} without exiting, printing to standard output: the exit code. */
    static int exitCode(final String[] argv) {
        return Tool.exitCode("cluster-copy-member", USAGE, () -> run(argv));
    }

    private static int run(final String[] argv) throws IOException {
        final Args args = Args.parse(argv, Set.of("--from", "--to", "--id"), Set.of(), 0);
        final Path from = Path.of(args.required("--from", "data/node-2"));
        final Path to = Path.of(args.required("--to", "data/node-0"));
        final int id = args.intNumber("--id", -1, 0, Integer.MAX_VALUE);
        if (id < 0) {
            throw new Args.UsageException("--id N is needed: the member id the replacement runs as");
        }
        final Copied copied = copy(from, to, id);
        System.out.printf("cluster-copy-member: %s -> %s as member %d; start it with bin/cluster-node --id %d --data-dir %s%n", from, to,
            id, id, to);
        System.out.println("RESULT files=" + copied.files() + " bytes=" + copied.bytes());
        return 0;
    }

    /** What was copied. */
    record Copied(int files, long bytes) {
    }

    /** Copies member {@code from}'s log into the new data directory {@code to} for member {@code id}; see {@link #USAGE}. */
    static Copied copy(final Path from, final Path to, final int id) throws IOException {
        final Path fromCluster = ClusterNode.clusterDir(from);
        final Path fromArchive = fromCluster.resolve("archive");
        final Path properties = from.resolve(DataDirectory.MARKER);
        if (!Files.isRegularFile(fromCluster.resolve(RecordingLog.RECORDING_LOG_FILE_NAME))
            || !Files.isRegularFile(fromArchive.resolve(CATALOG)) || !Files.isRegularFile(properties)) {
            throw new Args.UsageException(from + " is not a cluster member's data directory (no " + DataDirectory.MARKER
                + ", cluster/" + RecordingLog.RECORDING_LOG_FILE_NAME + " or cluster/archive/" + CATALOG + ")");
        }
        if (Files.exists(to) && (!Files.isDirectory(to) || hasEntries(to))) {
            throw new Args.UsageException(to + " exists and is not an empty directory: a replacement starts from nothing but the"
                + " copy (remove what is there first, if it is the lost member's)");
        }
        final Path toCluster = ClusterNode.clusterDir(to);
        final Path toArchive = toCluster.resolve("archive");
        Files.createDirectories(toArchive);
        final List<Path[]> order = new ArrayList<>();
        order.add(new Path[] {properties, to.resolve(DataDirectory.MARKER)});
        for (final String name : List.of(RecordingLog.RECORDING_LOG_FILE_NAME, "node-state.dat")) {
            if (Files.isRegularFile(fromCluster.resolve(name))) {
                order.add(new Path[] {fromCluster.resolve(name), toCluster.resolve(name)});
            }
        }
        order.add(new Path[] {fromArchive.resolve(CATALOG), toArchive.resolve(CATALOG)});
        // After the catalog: a segment copied later holds at least what the catalog copied before it says was recorded.
        try (Stream<Path> files = Files.list(fromArchive)) {
            files.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().equals(CATALOG)
                    && !LEFT_OUT.contains(p.getFileName().toString()) && !p.getFileName().toString().endsWith(".previous"))
                .sorted()
                .forEach(p -> order.add(new Path[] {p, toArchive.resolve(p.getFileName())}));
        }
        long bytes = 0;
        for (final Path[] step : order) {
            Files.copy(step[0], step[1], StandardCopyOption.COPY_ATTRIBUTES);
            bytes += Files.size(step[1]);
        }
        Files.writeString(toCluster.resolve(ClusterNodeMain.MEMBER_FILE), id + "\n");
        return new Copied(order.size() + 1, bytes);
    }

    private static boolean hasEntries(final Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        }
    }
}
